import { describe, expect, it } from "vitest";
import { CanonicalJsonError } from "./canonical-json-error.js";
import { canonicalJson } from "./canonical-json.js";
import { CanonicalText } from "./canonical-text.js";

describe("CanonicalText", () => {
  it("holds exactly canonicalJson's text of the value", () => {
    const value = { b: [1, 2.5, "x"], a: { d: null, c: true } };
    expect(CanonicalText.of(value).json).toBe(canonicalJson(value));
    expect(CanonicalText.of(value).json).toBe('{"a":{"c":true,"d":null},"b":[1,2.5,"x"]}');
  });

  it("refuses what canonicalJson refuses, with the same error", () => {
    expect(() => CanonicalText.of({ at: new Date(0) })).toThrow(CanonicalJsonError);
    expect(() => CanonicalText.of({ n: Number.NaN })).toThrow(/\$\.n/);
  });

  it("recognizes only its own instances: look-alikes and prototype tricks are not sealed", () => {
    expect(CanonicalText.isSealed(CanonicalText.of(1))).toBe(true);
    expect(CanonicalText.isSealed({ json: "{}" })).toBe(false);
    expect(CanonicalText.isSealed(Object.create(CanonicalText.prototype))).toBe(false);
    expect(CanonicalText.isSealed("{}")).toBe(false);
    expect(CanonicalText.isSealed(null)).toBe(false);
    expect(CanonicalText.isSealed(undefined)).toBe(false);
  });
});
