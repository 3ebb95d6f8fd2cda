import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it, vi } from "vitest";
import { ajvFor, createAjv } from "./ajv-instances.js";
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

  it("meta-validates with the precompiled validators, never with Ajv's validateSchema (which compiles the meta-schema)", () => {
    const ajv = ajvFor("2020-12");
    const validateSchema = vi.spyOn(ajv, "validateSchema");
    try {
      // Schemas no other test compiles, so nothing comes from the cache.
      expect(createSchemaValidator({ type: "string", maxLength: 71_003 })("x").valid).toBe(true);
      expect(() => createSchemaValidator({ type: "object", minProperties: -71_003 })).toThrow(/Cannot compile the JSON Schema/);
      expect(validateSchema).not.toHaveBeenCalled();
    } finally {
      validateSchema.mockRestore();
    }
  });

  it("refuses an invalid schema with the errors Ajv's own meta-schema check gives", () => {
    for (const [dialect, schema] of [
      ["2020-12", { type: "nonsense", properties: { a: { minLength: "two" } } }],
      ["draft-07", { $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: 3 }] }],
    ] as const) {
      const reference = createAjv(dialect);
      expect(reference.validateSchema(schema)).toBe(false);
      const expected = `schema is invalid: ${reference.errorsText(reference.errors)}`;
      let message = "";
      try {
        createSchemaValidator(schema);
      } catch (error) {
        expect(LittleWorkflowError.is(error, "schema.invalid")).toBe(true);
        message = (error as Error).message;
      }
      expect(message).toContain(expected);
    }
  });
});
