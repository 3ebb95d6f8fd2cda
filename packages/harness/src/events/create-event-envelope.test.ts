import { idFromDigest, sha256Digest } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { createEventEnvelope } from "./create-event-envelope.js";

describe("createEventEnvelope", () => {
  it("derives eventId from the digest of { runId, sequence, type, payload } (runtime.md) and copies the payload", () => {
    const payload = { z: [1, { b: "é", a: null }], a: "😀" };
    const envelope = createEventEnvelope({ runId: "run_1", sequence: 7, type: "harness.session.failed", payload, recordedAt: new Date(0) });
    expect(envelope.eventId).toBe(idFromDigest("evt", sha256Digest({ runId: "run_1", sequence: 7, type: "harness.session.failed", payload })));
    expect(envelope.payload).toEqual(payload);
    expect(envelope.payload).not.toBe(payload);
    expect(envelope.recordedAt).toBe("1970-01-01T00:00:00.000Z");
  });
});
