import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkSchemaSubset } from "./check-schema-subset.js";
import { normalizeSchema } from "./normalize-schema.js";
import { SchemaNormalizationError } from "./schema-errors.js";

/** Shaped like the object AI SDK's jsonSchema() returns (ai is not a dependency of lwir). */
function aiSdkJsonSchema(schema: unknown | (() => unknown)): object {
  return {
    [Symbol.for("vercel.ai.schema")]: true,
    _type: undefined,
    get jsonSchema() {
      return typeof schema === "function" ? (schema as () => unknown)() : schema;
    },
    validate: undefined,
  };
}

function normalizationError(value: unknown): SchemaNormalizationError {
  try {
    normalizeSchema(value);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaNormalizationError);
    return error as SchemaNormalizationError;
  }
  throw new Error("expected normalizeSchema to throw");
}

describe("normalizeSchema: accepted inputs", () => {
  it("returns a JSON Schema as a plain copy", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const normalized = normalizeSchema(schema);
    expect(normalized).toEqual(schema);
    expect(normalized).not.toBe(schema);
    schema.required.push("later");
    expect(normalized).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
  });

  it("returns boolean schemas as they are", () => {
    expect(normalizeSchema(true)).toBe(true);
    expect(normalizeSchema(false)).toBe(false);
  });

  it("converts Zod v4 schemas with toJSONSchema (2020-12)", () => {
    const schema = z.object({
      summary: z.string().min(1),
      severity: z.enum(["low", "medium", "high"]),
      score: z.number().int().optional(),
      note: z.string().nullable(),
      result: z.discriminatedUnion("kind", [z.object({ kind: z.literal("ok") }), z.object({ kind: z.literal("error"), reason: z.string() })]),
    });
    const normalized = normalizeSchema(schema);
    expect(normalized).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: ["summary", "severity", "note", "result"],
      additionalProperties: false,
      properties: { summary: { type: "string", minLength: 1 }, severity: { enum: ["low", "medium", "high"] } },
    });
    expect(checkSchemaSubset(normalized)).toEqual([]);
  });

  it("unwraps AI SDK jsonSchema() wrappers, eager and lazy", () => {
    const inner = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    expect(normalizeSchema(aiSdkJsonSchema(inner))).toEqual(inner);
    expect(normalizeSchema(aiSdkJsonSchema(() => inner))).toEqual(inner);
  });

  it("accepts a draft-07 schema as AI SDK's zodSchema() emits it", () => {
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "number" } }, additionalProperties: false };
    expect(normalizeSchema(aiSdkJsonSchema(draft07))).toEqual(draft07);
  });
});

describe("normalizeSchema: rejections say what was given and how to fix it", () => {
  class Validator {
    check(): boolean {
      return true;
    }
  }
  const cases: [string, unknown, string, RegExp][] = [
    ["a live validator function", (value: unknown) => typeof value === "string", "schema.unsupported_input", /Cannot use a function.*live validator functions cannot be stored in LWIR.*Pass a JSON Schema object/],
    ["a class instance", new Validator(), "schema.unsupported_input", /an instance of Validator.*only plain JSON objects/],
    ["a Date", new Date(0), "schema.unsupported_input", /an instance of Date/],
    ["a string", "string", "schema.unsupported_input", /a string \("string"\).*must be an object or a boolean/],
    ["null", null, "schema.unsupported_input", /Cannot use null/],
    ["undefined", undefined, "schema.unsupported_input", /Cannot use undefined/],
    ["an array", [{ type: "string" }], "schema.unsupported_input", /an array/],
    ["a Zod 3 schema", { _def: { typeName: "ZodString" }, safeParse: () => ({}) }, "schema.unsupported_input", /Zod 3 schema.*Zod v4/],
    ["a Standard Schema validator", { "~standard": { vendor: "valibot", version: 1, validate: () => ({}) } }, "schema.unsupported_input", /Standard Schema validator from valibot/],
    ["an async AI SDK schema", aiSdkJsonSchema(() => Promise.resolve({ type: "string" })), "schema.unsupported_input", /asynchronously/],
    ["a Zod type JSON Schema cannot represent", z.object({ at: z.date() }), "schema.unsupported_input", /Cannot convert the Zod schema.*Date cannot be represented/],
    ["a Zod string format", z.object({ email: z.email() }), "schema.invalid", /\$\.properties\.email\.format: keyword "format"/],
    ["a keyword outside the subset", { type: "string", pattern: "^a" }, "schema.invalid", /outside the LWIR JSON Schema subset: \$\.pattern: keyword "pattern"/],
    ["a subset rule", { type: "object", required: ["missing"] }, "schema.invalid", /\$\.required\[0\]: keyword "required" lists "missing"/],
    ["non-JSON values inside", { type: "object", properties: { a: { const: Number.NaN } } }, "schema.invalid", /not plain JSON.*\$\.properties\.a\.const/],
    ["an AI SDK wrapper around an invalid schema", aiSdkJsonSchema({ type: "string", format: "uri" }), "schema.invalid", /AI SDK jsonSchema\(\).*keyword "format"/],
  ];
  it.each(cases)("%s", (_name, value, code, message) => {
    const error = normalizationError(value);
    expect(error.code).toBe(code);
    expect(LittleWorkflowError.is(error, code)).toBe(true);
    expect(error.message).toMatch(message);
  });

  it("lists every subset problem in details", () => {
    const error = normalizationError({ type: "object", properties: { a: { format: "x" } }, default: {} });
    expect(error.details.problems).toEqual([
      { path: "$.default", message: expect.stringMatching(/keyword "default"/) },
      { path: "$.properties.a.format", message: expect.stringMatching(/keyword "format"/) },
    ]);
  });
});
