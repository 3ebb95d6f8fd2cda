import { canonicalJson, idFromDigest, sha256Hex } from "@little-stack/canonical";
import type { HarnessEventEnvelope } from "./harness-event-types.js";

/**
 * The runtime envelope (runtime.md): `eventId` is `evt_` + 16 hex of the digest of
 * `{ runId, sequence, type, payload }`, so the same event always gets the same id. The envelope's
 * payload is a fresh copy parsed from its canonical JSON (what a store would hand back), and the
 * payload is serialized once for both the copy and the id.
 */
export function createEventEnvelope(options: {
  readonly runId: string;
  readonly sequence: number;
  readonly type: string;
  readonly payload: unknown;
  readonly recordedAt?: Date;
}): HarnessEventEnvelope {
  const { runId, sequence, type } = options;
  const payloadJson = canonicalJson(options.payload);
  if (!Number.isSafeInteger(sequence)) throw new RangeError(`Event sequence must be an integer, got ${String(sequence)}.`);
  // The canonical JSON of { payload, runId, sequence, type }: keys in sorted order, the payload's
  // canonical text spliced in rather than serialized a second time.
  const identity = `{"payload":${payloadJson},"runId":${canonicalJson(runId)},"sequence":${sequence},"type":${canonicalJson(type)}}`;
  return {
    eventId: idFromDigest("evt", `sha256:${sha256Hex(identity)}`),
    runId,
    sequence,
    type,
    recordedAt: (options.recordedAt ?? new Date()).toISOString(),
    payload: JSON.parse(payloadJson) as unknown,
  };
}
