import { describe, expect, it } from "vitest";
import { allowedSchemaKeywords, checkSchemaSubset } from "./check-schema-subset.js";
import { acceptedSchemas, pathologicalSchemas, rejectedSchemas } from "./__fixtures__/schema-subset-cases.js";

function messages(schema: unknown): string[] {
  return checkSchemaSubset(schema).map((problem) => problem.message);
}

describe("checkSchemaSubset: accepted schemas", () => {
  it.each(acceptedSchemas)("%s", (_name, schema) => {
    expect(checkSchemaSubset(schema)).toEqual([]);
  });

  it("lists exactly the keywords of lwir.md §5", () => {
    expect([...allowedSchemaKeywords].sort()).toEqual(
      [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
        "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "propertyNames", "title",
        "description", "examples", "$schema",
      ].sort(),
    );
  });
});

describe("checkSchemaSubset: every rule of §5 is a problem naming the keyword, at the right path", () => {
  it.each(rejectedSchemas)("%s", (_name, schema, path, message) => {
    const problems = checkSchemaSubset(schema);
    expect(problems.length).toBeGreaterThanOrEqual(1);
    expect(problems[0]!.path).toEqual(path);
    expect(problems[0]!.message).toMatch(message);
  });

  it("reports every problem of a schema in one pass", () => {
    const problems = checkSchemaSubset({
      type: "object",
      properties: { a: { type: "string", pattern: "x" }, b: { type: ["object", "null"] } },
      required: ["a", "c"],
      default: {},
    });
    expect(problems.map((problem) => problem.path)).toEqual([["default"], ["required", 1], ["properties", "a", "pattern"], ["properties", "b", "type"]]);
  });

  it("never throws, whatever it is given", () => {
    const { cyclic, deep, wide, polluted } = pathologicalSchemas();
    for (const input of [cyclic, deep, wide, polluted, undefined, () => 1, Symbol("x"), 10n]) {
      expect(() => checkSchemaSubset(input)).not.toThrow();
    }
    expect(messages(polluted).join(" ")).toMatch(/__proto__|pattern/);
    expect(checkSchemaSubset(wide)).toEqual([]);
  });
});
