import { describe, expect, it } from "vitest";
import { schemaAtPath } from "./schema-at-path.js";

const ticket = {
  type: "object",
  properties: {
    id: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    owner: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false },
    extra: { type: "object", additionalProperties: { type: "number" } },
    either: { anyOf: [{ type: "string" }, { type: "object", properties: { code: { type: "integer" } } }] },
    maybe: { type: ["string", "null"] },
  },
  required: ["id"],
  additionalProperties: false,
};

describe("schemaAtPath: paths some value of the schema has", () => {
  it.each([
    [[], ticket],
    [["id"], { type: "string" }],
    [["tags", 0], { type: "string" }],
    [["tags", "1"], { type: "string" }],
    [["owner", "name"], { type: "string" }],
    [["extra", "anything"], { type: "number" }],
    [["either", "code"], { type: "integer" }],
  ] as const)("%j", (segments, schema) => {
    expect(schemaAtPath(ticket, segments)).toEqual({ kind: "ok", schema });
  });

  it("says nothing below what a schema does not restrict", () => {
    expect(schemaAtPath(true, ["a", 0, "b"])).toEqual({ kind: "ok", schema: undefined });
    expect(schemaAtPath({}, ["a"])).toEqual({ kind: "ok", schema: undefined });
    expect(schemaAtPath({ type: "object" }, ["a", "b"])).toEqual({ kind: "ok", schema: undefined });
    expect(schemaAtPath({ type: "object", properties: { a: {} } }, ["b"])).toEqual({ kind: "ok", schema: undefined });
  });
});

describe("schemaAtPath: paths no value of the schema has", () => {
  it.each([
    [["tags", "length"], 1, 'is an array: it has no property "length" (use len(…) for its length)'],
    [["id", "length"], 1, 'is a string: it has no property "length" (use len(…) for its length)'],
    [["nope"], 0, 'has no property "nope" (its schema allows only "id", "tags", "owner", "extra", "either", "maybe")'],
    [["owner", "email"], 1, 'has no property "email" (its schema allows only "name")'],
    [["id", 0], 1, "is a string: it has no index 0"],
    [["maybe", "x"], 1, 'is a string or a null: it has no property "x"'],
    [["either", "code", "x"], 2, 'is a number: it has no property "x"'],
  ] as const)("%j", (segments, at, problem) => {
    expect(schemaAtPath(ticket, segments)).toEqual({ kind: "impossible", at, problem });
  });

  it("an enum or const of strings is a string", () => {
    expect(schemaAtPath({ enum: ["a", "b"] }, ["x"]).kind).toBe("impossible");
    expect(schemaAtPath({ const: 3 }, ["x"]).kind).toBe("impossible");
  });
});
