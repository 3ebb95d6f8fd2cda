import { contentId } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { eventIdFor, prepareEvents } from "./event-envelope.js";

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
