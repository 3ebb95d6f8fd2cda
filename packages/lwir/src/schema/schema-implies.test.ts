import { describe, expect, it } from "vitest";
import { schemaImplicationGaps } from "./schema-implies.js";

const output = {
  type: "object",
  required: ["summary", "severity"],
  properties: { summary: { type: "string", minLength: 1 }, severity: { type: "string", enum: ["low", "medium", "high"] } },
  additionalProperties: false,
};

describe("schemaImplicationGaps: every value of the narrow schema fits the wide one", () => {
  it.each([
    ["the same schema", output, output],
    ["anything fits true", { type: "string" }, true],
    ["integer fits number", { type: "integer" }, { type: "number" }],
    ["a smaller enum", { type: "string", enum: ["low"] }, { type: "string", enum: ["low", "high"] }],
    ["a const in the enum", { const: "high" }, { enum: ["low", "high"] }],
    ["tighter bounds", { type: "string", minLength: 3, maxLength: 5 }, { type: "string", minLength: 1, maxLength: 10 }],
    ["more required, fewer properties", { ...output, required: ["summary", "severity"] }, { ...output, required: ["summary"] }],
    ["a branch of anyOf", { type: "string" }, { anyOf: [{ type: "number" }, { type: "string" }] }],
    ["arrays of fitting items", { type: "array", items: { type: "integer" }, maxItems: 3 }, { type: "array", items: { type: "number" }, maxItems: 5 }],
    ["annotations only", { type: "string" }, { description: "anything" }],
    // What the producer decides, not the plan: extra keys of an open object, Zod's safe-integer bounds.
    ["an open object for a closed one", { ...output, additionalProperties: undefined }, output],
    ["an unbounded integer for Zod's int()", { type: "integer" }, { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 }],
  ])("%s", (_name, narrow, wide) => {
    expect(schemaImplicationGaps(narrow, wide)).toEqual([]);
  });
});

describe("schemaImplicationGaps: where the narrow schema lets through what the wide one rejects", () => {
  it.each([
    ["text output for an object", { type: "string" }, output, "$", /the step may produce string, the workflow schema requires object/],
    ["an optional required field", { ...output, required: ["summary"] }, output, "$.severity", /required by the workflow schema, optional in the step's/],
    ["a wider enum", { ...output, properties: { ...output.properties, severity: { type: "string", enum: ["low", "urgent"] } } }, output, "$.severity", /may produce "urgent"/],
    ["a declared property a closed schema does not allow", { ...output, properties: { ...output.properties, extra: { type: "string" } } }, output, "$.extra", /the workflow schema accepts no value here/],
    ["a missing bound", { type: "string" }, { type: "string", minLength: 1 }, "$", /minLength 1, the step's no minLength/],
    ["no type at all", true, output, "$", /does not restrict this value/],
    ["items of another type", { type: "array", items: { type: "string" } }, { type: "array", items: { type: "number" } }, "$[0]", /may produce string/],
  ])("%s", (_name, narrow, wide, path, problem) => {
    const gaps = schemaImplicationGaps(narrow, wide);
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps).toContainEqual({ path, problem: expect.stringMatching(problem) });
  });
});
