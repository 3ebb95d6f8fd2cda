import { describe, expect, it } from "vitest";
import { deepFreeze } from "./deep-freeze.js";

describe("deepFreeze", () => {
  it("freezes every object and array at every depth and returns the same value", () => {
    const value = { a: { b: [1, { c: 2 }] }, d: "x" };
    const frozen = deepFreeze(value);
    expect(frozen).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
    expect(() => {
      (value.a.b[1] as { c: number }).c = 3;
    }).toThrow(TypeError);
  });

  it("descends into children of an already frozen parent", () => {
    const child = { x: 1 };
    deepFreeze(Object.freeze({ child }));
    expect(Object.isFrozen(child)).toBe(true);
  });

  it("handles cycles and very deep nesting", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => deepFreeze(cyclic)).not.toThrow();
    let deep: unknown = {};
    const innermost = deep;
    for (let level = 0; level < 100_000; level += 1) deep = { next: deep };
    deepFreeze(deep);
    expect(Object.isFrozen(innermost)).toBe(true);
  });

  it("leaves primitives alone", () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
  });
});
