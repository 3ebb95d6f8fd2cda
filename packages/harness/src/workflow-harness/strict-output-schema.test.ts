import { createSchemaValidator } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { dropAbsentNulls } from "./drop-absent-nulls.js";
import { strictOutputSchema } from "./strict-output-schema.js";

describe("strictOutputSchema", () => {
  it("makes every property required (optional ones nullable) and closes every object, at every depth", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        id: { type: "integer", minimum: 1 },
        kind: { type: "string", enum: ["a", "b"] },
        label: { const: "x" },
        items: { type: "array", minItems: 1, items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "number" } }, required: ["sku"] } },
      },
      required: ["id"],
      additionalProperties: true,
    };
    expect(strictOutputSchema(schema)).toEqual({
      strict: true,
      schema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          id: { type: "integer", minimum: 1 },
          kind: { type: ["string", "null"], enum: ["a", "b", null] },
          label: { anyOf: [{ const: "x" }, { type: "null" }] },
          items: {
            anyOf: [
              {
                type: "array",
                minItems: 1,
                items: { type: "object", properties: { sku: { type: "string" }, qty: { type: ["number", "null"] } }, required: ["sku", "qty"], additionalProperties: false },
              },
              { type: "null" },
            ],
          },
        },
        required: ["id", "kind", "label", "items"],
        additionalProperties: false,
      },
    });
  });

  it("turns oneOf into anyOf and leaves out keywords strict mode does not take", () => {
    const schema = {
      type: "object",
      properties: {
        value: { oneOf: [{ type: "string", examples: ["s"] }, { type: "number" }] },
        tags: { type: "object", properties: { a: { type: "string" } }, required: ["a"], propertyNames: { maxLength: 3 } },
      },
      required: ["value", "tags"],
    };
    expect(strictOutputSchema(schema).schema).toEqual({
      type: "object",
      properties: {
        value: { anyOf: [{ type: "string" }, { type: "number" }] },
        tags: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
      },
      required: ["value", "tags"],
      additionalProperties: false,
    });
  });

  it("keeps a nullable optional property as it is, and leaves a closed empty object strict", () => {
    const schema = { type: "object", properties: { note: { type: ["string", "null"] }, meta: { type: "object", additionalProperties: false } }, required: ["meta"] };
    expect(strictOutputSchema(schema)).toEqual({
      strict: true,
      schema: {
        type: "object",
        properties: { note: { type: ["string", "null"] }, meta: { type: "object", properties: {}, required: [], additionalProperties: false } },
        required: ["note", "meta"],
        additionalProperties: false,
      },
    });
  });

  for (const [what, property] of [
    ["a free-form object", { type: "object" }],
    ["a map", { type: "object", additionalProperties: { type: "string" } }],
    ["an array without items", { type: "array" }],
    ["any value", {}],
    ["the true schema", true],
    ["a description only", { description: "anything" }],
  ] as const) {
    it(`returns the schema unchanged and not strict when it holds ${what}`, () => {
      const schema = { type: "object", properties: { x: property }, required: [] };
      expect(strictOutputSchema(schema)).toEqual({ schema, strict: false });
    });
  }

  it("accepts what a strict provider may write, which maps back to a value the LWIR schema accepts", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        age: { type: "integer" },
        address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city"] },
        pets: { type: "array", items: { anyOf: [{ type: "object", properties: { kind: { const: "cat" }, lives: { type: "integer" } }, required: ["kind"] }, { type: "object", properties: { kind: { const: "dog" } }, required: ["kind"] }] } },
      },
      required: ["name", "pets"],
      additionalProperties: false,
    };
    const strict = strictOutputSchema(schema);
    expect(strict.strict).toBe(true);
    const written = { name: "Ana", age: null, address: { city: "Oslo", zip: null }, pets: [{ kind: "cat", lives: null }, { kind: "dog" }] };
    expect(createSchemaValidator(strict.schema)(written).valid).toBe(true);
    expect(createSchemaValidator(schema)(written).valid).toBe(false);
    const mapped = dropAbsentNulls(schema, written);
    expect(mapped).toEqual({ name: "Ana", address: { city: "Oslo" }, pets: [{ kind: "cat" }, { kind: "dog" }] });
    expect(createSchemaValidator(schema)(mapped).valid).toBe(true);
  });
});
