import { describe, expect, it } from "vitest";
import { decodeStepPathDirectory, encodeStepPathDirectory } from "./step-path-directory.js";

describe("encodeStepPathDirectory", () => {
  it("escapes every character outside a-z 0-9 _ -", () => {
    expect(encodeStepPathDirectory("score")).toBe("score");
    expect(encodeStepPathDirectory("loop.visit[2]")).toBe("loop%2Evisit%5B2%5D");
    expect(encodeStepPathDirectory("fan[a%2Eb].review")).toBe("fan%5Ba%252%45b%5D%2Ereview");
    expect(encodeStepPathDirectory("fan@attempt_2")).toBe("fan%40attempt_2");
    expect(encodeStepPathDirectory("../x")).toBe("%2E%2E%2Fx");
  });

  it("keeps case-only different step paths apart on case-insensitive file systems", () => {
    const upper = encodeStepPathDirectory("Review");
    const lower = encodeStepPathDirectory("review");
    expect(upper.toLowerCase()).not.toBe(lower.toLowerCase());
  });

  it("round-trips, including non-ASCII", () => {
    for (const stepPath of ["loop.visit[0]", "fan[caf%C3%A9].x", "émoji🙂", "A.b[C]"]) {
      expect(decodeStepPathDirectory(encodeStepPathDirectory(stepPath))).toBe(stepPath);
    }
    expect(decodeStepPathDirectory("not/valid")).toBeUndefined();
  });

  it("shortens very long paths with a hash suffix that keeps them distinct", () => {
    const a = encodeStepPathDirectory(`${"x".repeat(300)}a`);
    const b = encodeStepPathDirectory(`${"x".repeat(300)}b`);
    expect(a.length).toBeLessThanOrEqual(161);
    expect(a).not.toBe(b);
    expect(decodeStepPathDirectory(a)).toBeUndefined();
  });

  it("refuses empty step paths and NUL bytes", () => {
    expect(() => encodeStepPathDirectory("")).toThrow(/step path/);
    expect(() => encodeStepPathDirectory("a\0b")).toThrow(/NUL/);
  });
});
