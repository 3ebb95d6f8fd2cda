import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { createSchemaValidator } from "./create-schema-validator.js";

const ticketSchema = {
  type: "object",
  required: ["summary", "severity"],
  properties: {
    summary: { type: "string", minLength: 1 },
    severity: { type: "string", enum: ["low", "medium", "high"] },
    tags: { type: "array", items: { type: "string" } },
  },
  additionalProperties: false,
};

describe("createSchemaValidator", () => {
  it("accepts a valid value", () => {
    expect(createSchemaValidator(ticketSchema)({ summary: "s", severity: "low" })).toEqual({ valid: true, errors: [] });
  });

  it("reports every error with a JSONPath-like path from $", () => {
    const result = createSchemaValidator(ticketSchema)({ severity: "urgent", tags: ["a", 2], extra: 1 });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { path: "$", message: 'missing required property "summary"' },
        { path: "$", message: 'has unexpected property "extra"' },
        { path: "$.severity", message: 'must be one of ["low","medium","high"]' },
        { path: "$.tags[1]", message: "must be of type string" },
      ]),
    );
  });

  it("quotes keys that are not identifiers", () => {
    const validator = createSchemaValidator({ type: "object", properties: { "a b": { type: "number" } } });
    expect(validator({ "a b": "x" }).errors).toEqual([{ path: '$["a b"]', message: "must be of type number" }]);
  });

  it("reuses the compiled validator for the same schema, whatever its key order", () => {
    const first = createSchemaValidator({ type: "string", maxLength: 2 });
    const second = createSchemaValidator({ maxLength: 2, type: "string" });
    expect(second).toBe(first);
    expect(first("abc").valid).toBe(false);
  });

  it("supports boolean schemas", () => {
    expect(createSchemaValidator(true)(123).valid).toBe(true);
    expect(createSchemaValidator(false)(123).valid).toBe(false);
  });

  it("validates draft-07 schemas with the draft-07 dialect", () => {
    const validator = createSchemaValidator({ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }] });
    expect(validator(["a"]).valid).toBe(true);
    expect(validator([1]).errors).toEqual([{ path: "$[0]", message: "must be of type string" }]);
  });

  it("validates schemas outside the subset too (tool schemas), with formats known", () => {
    const validator = createSchemaValidator({ type: "string", format: "email" });
    expect(validator("a@example.test").valid).toBe(true);
    expect(validator("nope").valid).toBe(false);
  });

  it("throws a named schema.invalid error for a schema Ajv cannot compile", () => {
    expect(() => createSchemaValidator({ type: "nonsense" })).toThrow(/Cannot compile the JSON Schema/);
    try {
      createSchemaValidator({ $schema: "http://json-schema.org/draft-04/schema#" });
    } catch (error) {
      expect(LittleWorkflowError.is(error, "schema.invalid")).toBe(true);
    }
  });
});
