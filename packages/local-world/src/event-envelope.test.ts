import { contentId } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { envelopeOf, eventIdFor, prepareEvents } from "./event-envelope.js";

describe("eventIdFor", () => {
  it("equals contentId('evt', { runId, sequence, type, payload }) without canonicalizing twice", () => {
    const payloads: unknown[] = [
      null,
      0,
      -0,
      1e21,
      "quote \" backslash \\ newline \n tab \t control \u0001 emoji 😀 accent é",
      [],
      {},
      { "z": 1, "a": { "é": [true, false, null], "A": 1.5e-7 }, "": "empty key", "\u0000": 0 },
      Array.from({ length: 50 }, (_, index) => ({ index, text: "x".repeat(index) })),
    ];
    for (const payload of payloads) {
      const [prepared] = prepareEvents("run.with-all_chars.0", { type: "harness.tool_call:started-x", payload });
      for (const sequence of [1, 42, 9_007_199_254_740_991]) {
        expect(eventIdFor({ runId: "run.with-all_chars.0", sequence, type: prepared!.type, payloadJson: prepared!.payloadJson })).toBe(
          contentId("evt", { runId: "run.with-all_chars.0", sequence, type: "harness.tool_call:started-x", payload }),
        );
      }
    }
  });
});

describe("envelopeOf", () => {
  const fields = { eventId: "evt_0123456789abcdef", runId: "run_a", sequence: 3, type: "StepCompleted", recordedAt: "2026-12-03T00:00:00.000Z" };

  it("looks like a plain object: own keys are the six fields only, Object.prototype, JSON and spreads carry the payload", () => {
    const envelope = envelopeOf({ ...fields, payloadJson: '{"stepPath":"a","n":1}' });
    expect(Reflect.ownKeys(envelope)).toEqual(["eventId", "runId", "sequence", "type", "recordedAt", "payload"]);
    expect(Object.getPrototypeOf(envelope)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({ ...fields, payload: { stepPath: "a", n: 1 } });
    expect({ ...envelope }).toEqual({ ...fields, payload: { stepPath: "a", n: 1 } });
  });

  it("parses the payload on first read and hands out that copy after", () => {
    const envelope = envelopeOf({ ...fields, payloadJson: '{"n":1}' });
    const first = envelope.payload;
    expect(envelope.payload).toBe(first);
    expect(envelopeOf({ ...fields, payloadJson: '{"n":1}' }).payload).not.toBe(first);
  });

  it("throws the caller's error for text that does not parse, on every read", () => {
    const envelope = envelopeOf({ ...fields, payloadJson: "{not json", onUnparsable: () => new Error("row 3 is damaged") });
    expect(() => envelope.payload).toThrow("row 3 is damaged");
    expect(() => envelope.payload).toThrow("row 3 is damaged");
    expect(() => envelopeOf({ ...fields, payloadJson: "{not json" }).payload).toThrow(SyntaxError);
  });

  it("refuses its payload getter on an object that is not one of its envelopes", () => {
    const getter = Object.getOwnPropertyDescriptor(envelopeOf({ ...fields, payloadJson: "{}" }), "payload")!.get!;
    expect(() => getter.call({ ...fields })).toThrow(TypeError);
  });
});
