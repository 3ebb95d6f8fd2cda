import { describe, expect, it } from "vitest";
import { copyJson, deepFreeze } from "./deep-freeze.js";

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

describe("copyJson", () => {
  it("copies deeply, keeping key order", () => {
    const value = { z: [1, { y: 2 }], a: null };
    const copy = copyJson(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.z).not.toBe(value.z);
    expect(Object.keys(copy)).toEqual(["z", "a"]);
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
