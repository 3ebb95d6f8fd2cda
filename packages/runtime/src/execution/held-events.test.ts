import { CanonicalText } from "@little-stack/canonical";
import { eventIdFor } from "@little-stack/local-world";
import { describe, expect, it } from "vitest";
import { heldEnvelope, heldInput } from "./held-events.js";

describe("held events", () => {
  const text = CanonicalText.of({ stepPath: "a", attempt: 1 });
  const held = () => heldEnvelope({ runId: "run_a", sequence: 7, type: "StepAttemptStarted", recordedAt: "2026-12-03T00:00:00.000Z", text });

  it("look like the world's envelopes: own keys only, Object.prototype, the id the world will give, the payload parsed from the text", () => {
    const envelope = held();
    expect(Reflect.ownKeys(envelope)).toEqual(["runId", "sequence", "type", "recordedAt", "eventId", "payload"]);
    expect(Object.getPrototypeOf(envelope)).toBe(Object.prototype);
    expect(envelope.eventId).toBe(eventIdFor({ runId: "run_a", sequence: 7, type: "StepAttemptStarted", payloadJson: text.json }));
    expect(envelope.payload).toEqual({ stepPath: "a", attempt: 1 });
    expect(envelope.payload).toBe(envelope.payload);
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({ runId: "run_a", sequence: 7, type: "StepAttemptStarted", recordedAt: "2026-12-03T00:00:00.000Z", eventId: envelope.eventId, payload: { stepPath: "a", attempt: 1 } });
  });

  it("go to the world as { type, canonicalPayload, payload } with the payload read from the held envelope", () => {
    const envelope = held();
    const input = heldInput(envelope, text);
    expect(Reflect.ownKeys(input)).toEqual(["type", "canonicalPayload", "payload"]);
    expect(input.canonicalPayload).toBe(text);
    expect(input.payload).toBe(envelope.payload);
    expect({ ...input }.payload).toEqual({ stepPath: "a", attempt: 1 });
  });

  it("refuse their getters on objects they did not make", () => {
    const descriptor = Object.getOwnPropertyDescriptor(held(), "eventId")!;
    expect(() => descriptor.get!.call({ runId: "run_a", sequence: 1, type: "x" })).toThrow(TypeError);
  });
});
