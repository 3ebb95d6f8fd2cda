import { describe, expect, it } from "vitest";
import { dropAbsentNulls } from "./drop-absent-nulls.js";

describe("dropAbsentNulls", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: ["string", "null"] }, c: { type: "string" } },
    required: ["c"],
  };

  it("drops a null only for an optional property whose schema does not take null", () => {
    expect(dropAbsentNulls(schema, { a: null, b: null, c: null, d: null })).toEqual({ b: null, c: null, d: null });
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"a":null}') as Record<string, unknown>;
    const mapped = dropAbsentNulls(schema, value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
    expect(Object.keys(mapped)).toEqual(["__proto__"]);
  });

  it("returns non-objects and values outside any branch unchanged", () => {
    expect(dropAbsentNulls(schema, "text")).toBe("text");
    expect(dropAbsentNulls({ anyOf: [{ type: "object", properties: { k: { type: "string" } }, required: ["k"] }] }, { j: null })).toEqual({ j: null });
  });
});
