import { idFromDigest, sha256Digest } from "@little-stack/canonical";
import type { HarnessEventEnvelope } from "./harness-event-types.js";

/**
 * The runtime envelope (runtime.md): `eventId` is `evt_` + 16 hex of the digest of
 * `{ runId, sequence, type, payload }`, so the same event always gets the same id.
 */
export function createEventEnvelope(options: {
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly payload: unknown;
  readonly recordedAt?: Date;
}): HarnessEventEnvelope {
  const { runId, sequence, type, payload } = options;
  return {
    eventId: idFromDigest("evt", sha256Digest({ runId, sequence, type, payload })),
    runId,
    sequence,
    type,
    recordedAt: (options.recordedAt ?? new Date()).toISOString(),
    payload,
  };
}
