import { checkSchemaSubset, createSchemaValidator, type JsonSchema } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { choicesFrom, generateSubsetSchema } from "./__fixtures__/generate-subset-schema.js";
import { sampleFromSchema } from "./sample-from-schema.js";
import { SchemaSampleError } from "./schema-sample-error.js";

function expectFits(schema: JsonSchema, value: unknown): void {
  const result = createSchemaValidator(schema)(value);
  expect(result.errors, `${JSON.stringify(value)} against ${JSON.stringify(schema)}`).toEqual([]);
}

describe("sampleFromSchema", () => {
  it("builds readable values: named strings, true, numbers from their bounds, every property, one item", () => {
    const schema = {
      type: "object",
      required: ["summary", "approved", "score"],
      properties: {
        summary: { type: "string" },
        approved: { type: "boolean" },
        score: { type: "integer", minimum: 1, maximum: 10 },
        retries: { type: "integer", minimum: 0 },
        ratio: { type: "number" },
        notes: { type: ["string", "null"] },
        severity: { type: "string", enum: ["low", "medium", "high"] },
        tags: { type: "array", items: { type: "string" } },
      },
      additionalProperties: false,
    };
    const value = sampleFromSchema(schema);
    expect(value).toEqual({
      summary: "sample summary",
      approved: true,
      score: 10,
      retries: 0,
      ratio: 1,
      notes: "sample notes",
      severity: "low",
      tags: ["sample tags"],
    });
    expectFits(schema, value);
  });

  it("is deterministic and keeps array items distinct (item keys of a fan-out stay unique)", () => {
    const schema = { type: "array", minItems: 3, items: { type: "object", required: ["id", "n"], properties: { id: { type: "string" }, n: { type: "integer", maximum: 5 } } } };
    const first = sampleFromSchema(schema);
    expect(first).toEqual([
      { id: "sample id", n: 5 },
      { id: "sample id 2", n: 4 },
      { id: "sample id 3", n: 3 },
    ]);
    expect(sampleFromSchema(schema)).toEqual(first);
  });

  it("fits length and count bounds, integers between fractional bounds, const and enum with siblings", () => {
    const cases: JsonSchema[] = [
      { type: "string", minLength: 30 },
      { type: "string", maxLength: 3 },
      { type: "string", maxLength: 0 },
      { type: "integer", minimum: 1.5, maximum: 2.5 },
      { type: "number", minimum: -3.5 },
      { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
      { type: "integer", minimum: 9007199254740991 },
      { type: "array", maxItems: 0, items: { type: "string" } },
      { type: "array", items: false },
      { type: "string", enum: [1, "b"] },
      { const: { nested: [1, 2] } },
      { type: ["null", "integer"] },
      { type: "object", properties: { gone: false, kept: { type: "string" } } },
      { type: "object", propertyNames: { maxLength: 3 }, properties: { ab: { type: "string" }, toolong: { type: "string" } } },
      { type: "object", required: ["x"], additionalProperties: { type: "integer" } },
      { properties: { a: { type: "string" } } },
      { minItems: 2 },
      {},
      true,
    ];
    for (const schema of cases) expectFits(schema, sampleFromSchema(schema));
    expect(sampleFromSchema({ type: "string", maxLength: 3 })).toBe("sam");
    expect(sampleFromSchema({ type: "integer", minimum: 1.5, maximum: 2.5 })).toBe(2);
    expect(sampleFromSchema({ type: "string", enum: [1, "b"] })).toBe("b");
    expect(sampleFromSchema({ type: ["null", "integer"] })).toBe(1);
    // Zod's z.number().int() bounds mean "any integer".
    expect(sampleFromSchema({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 })).toBe(1);
    expect(sampleFromSchema({ type: "integer", minimum: 3, maximum: 9007199254740991 })).toBe(3);
    expect(sampleFromSchema({ type: "object", properties: { gone: false, kept: { type: "string" } } })).toEqual({ kept: "sample kept" });
  });

  it("takes the first anyOf branch that fits, and for oneOf a value only one branch accepts", () => {
    expect(sampleFromSchema({ anyOf: [{ type: "integer", minimum: 3, maximum: 2 }, { type: "boolean" }] })).toBe(true);
    // "sam" fits both branches; "sample text" only the second.
    expect(sampleFromSchema({ oneOf: [{ type: "string", maxLength: 3 }, { type: "string" }] })).toBe("sample text");
    const discriminated = {
      type: "object",
      oneOf: [
        { type: "object", required: ["kind", "url"], properties: { kind: { const: "link" }, url: { type: "string" } } },
        { type: "object", required: ["kind", "text"], properties: { kind: { const: "note" }, text: { type: "string" } } },
      ],
    };
    expect(sampleFromSchema(discriminated)).toEqual({ kind: "link", url: "sample url" });
    // Siblings of the branches apply too.
    const withSiblings = { type: "object", required: ["id"], properties: { id: { type: "integer", maximum: 9 } }, anyOf: [{ type: "object", required: ["kind"], properties: { kind: { enum: ["a"] } } }] };
    expect(sampleFromSchema(withSiblings)).toEqual({ id: 9, kind: "a" });
  });

  it("samples what Zod emits (2020-12, additionalProperties: false, optional fields) and draft-07", () => {
    // What z.toJSONSchema(z.object({ title: z.string().min(3).max(40), count: z.number().int().min(0).max(99),
    // mood: z.enum(["calm", "busy"]), extra: z.string().optional(), list: z.array(z.boolean()).min(2) })) emits.
    const zodSchema: JsonSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        title: { type: "string", minLength: 3, maxLength: 40 },
        count: { type: "integer", minimum: 0, maximum: 99 },
        mood: { type: "string", enum: ["calm", "busy"] },
        extra: { type: "string" },
        list: { minItems: 2, type: "array", items: { type: "boolean" } },
      },
      required: ["title", "count", "mood", "list"],
      additionalProperties: false,
    };
    const value = sampleFromSchema(zodSchema);
    expect(value).toEqual({ title: "sample title", count: 99, mood: "calm", extra: "sample extra", list: [true, true] });
    expectFits(zodSchema, value);
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }, { type: "integer", maximum: 4 }] };
    expect(sampleFromSchema(draft7)).toEqual(["sample text", 4]);
  });

  it("throws SchemaSampleError naming the path when no value fits", () => {
    const unsatisfiable: [JsonSchema, string][] = [
      [false, "$"],
      [{ type: "object", required: ["a"], properties: { a: false } }, "$.a"],
      [{ type: "integer", minimum: 1.2, maximum: 1.8 }, "$"],
      [{ type: "object", properties: { list: { type: "array", minItems: 1, items: { enum: [] } } }, required: ["list"] }, "$.list[0]"],
      [{ oneOf: [{ type: "boolean" }, { const: true }] }, "$"],
      [{ type: "string", const: 3 }, "$"],
    ];
    for (const [schema, path] of unsatisfiable) {
      let caught: unknown;
      try {
        sampleFromSchema(schema);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(schema)).toBeInstanceOf(SchemaSampleError);
      expect((caught as SchemaSampleError).code).toBe("testing.schema_sample_failed");
      expect((caught as SchemaSampleError).details.path, JSON.stringify(schema)).toBe(path);
    }
  });

  it("fuzz: every generated LWIR-subset schema gets a sample its validator accepts, the same every time", () => {
    const keywordsSeen = new Set<string>();
    const walk = (node: unknown): void => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        keywordsSeen.add(key);
        if (key === "properties") Object.values(value as object).forEach(walk);
        else if (Array.isArray(value)) value.forEach(walk);
        else walk(value);
      }
    };
    for (let run = 0; run < 600; run += 1) {
      const schema = generateSubsetSchema(choicesFrom(`sample-fuzz-${run}`)) as JsonSchema;
      walk(schema);
      expect(checkSchemaSubset(schema), `run ${run}: ${JSON.stringify(schema)}`).toEqual([]);
      let value: unknown;
      try {
        value = sampleFromSchema(schema);
      } catch (error) {
        throw new Error(`run ${run}: ${(error as Error).message}\nschema: ${JSON.stringify(schema)}`);
      }
      expect(createSchemaValidator(schema)(value).valid, `run ${run}: ${JSON.stringify(value)} against ${JSON.stringify(schema)}`).toBe(true);
      expect(sampleFromSchema(schema)).toEqual(value);
    }
    // The generator reaches every keyword of the subset.
    for (const keyword of ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "propertyNames", "$schema"]) {
      expect(keywordsSeen.has(keyword), keyword).toBe(true);
    }
  });

  it("fuzz: on arbitrary subset schemas it returns a fitting value or throws SchemaSampleError, nothing else", () => {
    const keywords = ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "propertyNames", "x"];
    const scalars: unknown[] = ["object", "array", "string", "number", "null", "integer", "boolean", true, false, null, 0, -1, 3, 1.5, "", "a"];
    const randomJson = (c: ReturnType<typeof choicesFrom>, depth: number): unknown => {
      const roll = c.below(100);
      if (depth > 3 || roll < 35) return c.pick(scalars);
      if (roll < 50) return Array.from({ length: c.below(4) }, () => randomJson(c, depth + 1));
      return Object.fromEntries(Array.from({ length: c.below(5) }, () => [c.pick(keywords), randomJson(c, depth + 1)]));
    };
    let sampled = 0;
    let inSubset = 0;
    for (let run = 0; run < 3_000; run += 1) {
      const candidate = randomJson(choicesFrom(`soup-${run}`), 0);
      if (checkSchemaSubset(candidate).length > 0) continue;
      inSubset += 1;
      const schema = candidate as JsonSchema;
      try {
        const value = sampleFromSchema(schema);
        expect(createSchemaValidator(schema)(value).valid).toBe(true);
        sampled += 1;
      } catch (error) {
        expect(error, JSON.stringify(schema)).toBeInstanceOf(SchemaSampleError);
      }
    }
    expect(inSubset).toBeGreaterThan(50);
    expect(sampled).toBeGreaterThan(inSubset / 2);
  });
});
