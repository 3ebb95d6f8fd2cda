import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../__fixtures__/seeded-random.js";
import { acceptedSchemas, pathologicalSchemas, rejectedSchemas } from "./__fixtures__/schema-subset-cases.js";
import { ajvFor, schemaDialectOf, supportedSchemaUris, type SchemaDialect } from "./ajv-instances.js";
import { checkSchemaSubset } from "./check-schema-subset.js";
import { metaSchemaErrors } from "./meta-schema-validators.js";

// The generator lives outside src/ (it is not shipped), so it is imported by URL: tsc does not follow it.
type Generator = {
  generatedMetaSchemaValidators: readonly { dialect: SchemaDialect; file: string }[];
  metaSchemaValidatorSource: (dialect: SchemaDialect) => string;
  regenerateCommand: string;
};
const generatorUrl = new URL("../../scripts/generate-meta-schema-validators.ts", import.meta.url).href;

/** The first line where two texts differ, or undefined when they are equal. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  const actualLines = actual.split("\n");
  const expectedLines = expected.split("\n");
  const line = actualLines.findIndex((text, index) => text !== expectedLines[index]);
  const at = line === -1 ? actualLines.length : line;
  return `line ${at + 1}: checked in ${JSON.stringify(actualLines[at]?.slice(0, 120))}, generated ${JSON.stringify(expectedLines[at]?.slice(0, 120))}`;
}

describe("precompiled meta-schema validators: freshness", () => {
  it("regenerating them gives exactly the checked-in files", async () => {
    const generator = (await import(generatorUrl)) as Generator;
    expect(generator.generatedMetaSchemaValidators.map((entry) => entry.dialect).sort()).toEqual(["2020-12", "draft-07"]);
    for (const { dialect, file } of generator.generatedMetaSchemaValidators) {
      const checkedIn = readFileSync(new URL(`./${file}`, import.meta.url), "utf8");
      const generated = generator.metaSchemaValidatorSource(dialect);
      expect(firstDifference(checkedIn, generated), `src/schema/${file} is stale: run ${generator.regenerateCommand}`).toBeUndefined();
    }
  });
});

type Outcome =
  | { readonly valid: boolean; readonly errors: readonly unknown[] }
  | { readonly threw: string; readonly message: string };

/** What Ajv's validateSchema says (the code path checkSchemaSubset used before precompilation). */
function ajvOutcome(schema: object, dialect: SchemaDialect): Outcome {
  const ajv = ajvFor(dialect);
  try {
    const valid = ajv.validateSchema(schema) as boolean;
    return { valid, errors: comparable(ajv.errors ?? []) };
  } catch (error) {
    return thrown(error);
  }
}

function precompiledOutcome(schema: object, dialect: SchemaDialect): Outcome {
  try {
    const errors = metaSchemaErrors(schema, dialect);
    return { valid: errors.length === 0, errors: comparable(errors) };
  } catch (error) {
    return thrown(error);
  }
}

function thrown(error: unknown): Outcome {
  return error instanceof Error ? { threw: error.constructor.name, message: error.message } : { threw: typeof error, message: String(error) };
}

/** Every field of Ajv's errors: the verdict's where, which keyword, its params, the meta-schema path and message. */
function comparable(errors: readonly object[]): unknown[] {
  return errors.map((error) => {
    const { instancePath, schemaPath, keyword, params, message } = error as Record<string, unknown>;
    return { instancePath, schemaPath, keyword, params, message };
  });
}

function expectSameAsAjv(schema: object): Outcome {
  const dialect = schemaDialectOf(schema);
  if (dialect === undefined) throw new Error(`the corpus holds a schema of an unsupported dialect: ${JSON.stringify((schema as { $schema?: unknown }).$schema)}`);
  const expected = ajvOutcome(schema, dialect);
  expect(precompiledOutcome(schema, dialect)).toEqual(expected);
  return expected;
}

/** `levels` of nesting through properties, items and anyOf in turn (each level holds its child once). */
function deepSchema(levels: number, leaf: object): object {
  let schema: object = leaf;
  for (let level = 0; level < levels; level += 1) {
    schema = [{ properties: { next: schema }, required: ["next"] }, { items: schema, minItems: 1 }, { anyOf: [{ type: "null" }, schema] }][level % 3]!;
  }
  return schema;
}

const draft07 = "http://json-schema.org/draft-07/schema#";

/** Beyond the subset fixtures: JSON Schema as a whole, valid and not, in both dialects. */
const metaCorpus: readonly [name: string, schema: object][] = [
  ["$ref and $defs", { $defs: { a: { type: "string" }, b: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/b" } } }],
  ["$ref not a string", { $ref: 5 }],
  ["$defs not an object", { $defs: [{ type: "string" }] }],
  ["bad schema inside $defs", { $defs: { a: { type: "strin" } } }],
  ["$dynamicRef and $dynamicAnchor", { $dynamicAnchor: "node", properties: { child: { $dynamicRef: "#node" } } }],
  ["$anchor not a name", { $anchor: "1 bad" }],
  ["$id with a fragment", { $id: "https://example.com/a#frag" }],
  ["$id not a string", { $id: 7 }],
  ["$schema spellings: 2020-12 with #", { $schema: "https://json-schema.org/draft/2020-12/schema#", type: "string" }],
  ["prefixItems, unevaluatedProperties, dependentSchemas", { prefixItems: [{ type: "string" }], unevaluatedProperties: false, dependentSchemas: { a: { required: ["b"] } } }],
  ["prefixItems not an array", { prefixItems: { type: "string" } }],
  ["type as a number", { type: 5 }],
  ["type array with a duplicate", { type: ["string", "string"] }],
  ["type array with an unknown name", { type: ["string", "nothing"] }],
  ["enum not an array", { enum: "a" }],
  ["enum empty", { enum: [] }],
  ["required with a number", { required: [1] }],
  ["required with duplicates", { required: ["a", "a"] }],
  ["properties an array", { properties: [{ type: "string" }] }],
  ["property schema a number", { properties: { a: 1 } }],
  ["minimum a string", { minimum: "1" }],
  ["maxLength fractional", { maxLength: 1.5 }],
  ["pattern a number", { pattern: 5 }],
  ["pattern not a regular expression", { pattern: "(" }],
  ["additionalProperties a string", { additionalProperties: "no" }],
  ["anyOf empty", { anyOf: [] }],
  ["anyOf an object", { anyOf: { type: "string" } }],
  ["oneOf with a bad branch", { oneOf: [{ type: "string" }, { minItems: -1 }] }],
  ["items a number", { items: 5 }],
  ["title and description not strings", { title: 1, description: false }],
  ["examples an object", { examples: { a: 1 } }],
  ["unknown format", { type: "string", format: "no-such-format" }],
  ["format a number", { format: 5 }],
  ["unknown keywords are allowed", { "x-vendor": { anything: [1, 2] }, frobnicate: true }],
  ["many errors at once", { type: "objekt", minLength: -1, required: "a", properties: { a: { enum: 1 }, b: { type: ["x"] } }, items: [1] }],
  ["a valid schema 60 levels deep", deepSchema(60, { type: "string", minLength: 1 })],
  ["a bad keyword 60 levels deep", deepSchema(60, { type: "string", minLength: -1 })],
  ["draft-07: definitions and $ref", { $schema: draft07, definitions: { a: { type: "string" } }, properties: { x: { $ref: "#/definitions/a" } } }],
  ["draft-07: definitions not an object", { $schema: draft07, definitions: 5 }],
  ["draft-07: items array with additionalItems", { $schema: draft07, items: [{ type: "string" }], additionalItems: { type: "number" } }],
  ["draft-07: boolean exclusiveMinimum (draft-04 style)", { $schema: draft07, minimum: 1, exclusiveMinimum: true }],
  ["draft-07: dependencies", { $schema: draft07, dependencies: { a: ["b"], c: { required: ["d"] }, e: 5 } }],
  ["draft-07: bad type inside items", { $schema: draft07, items: { type: "objekt" } }],
  ["draft-07 without #", { $schema: "http://json-schema.org/draft-07/schema", type: "string", minLength: -2 }],
  ...supportedSchemaUris.map((uri): [string, object] => [`$schema ${uri}`, { $schema: uri, type: "string" }]),
];

describe("precompiled meta-schema validators: the same verdict and errors as Ajv's validateSchema", () => {
  it.each(acceptedSchemas.filter(([, schema]) => typeof schema === "object" && schema !== null))("accepted fixture: %s", (_name, schema) => {
    expect(expectSameAsAjv(schema as object)).toMatchObject({ valid: true });
  });

  // The fixtures that are not objects never reach meta-validation; an unsupported $schema neither.
  const rejectedObjects = rejectedSchemas.filter(
    ([, schema]) => typeof schema === "object" && schema !== null && !Array.isArray(schema) && schemaDialectOf(schema) !== undefined,
  );
  it.each(rejectedObjects)("rejected fixture: %s", (_name, schema) => {
    expectSameAsAjv(schema as object);
  });

  it.each(metaCorpus)("%s", (_name, schema) => {
    expectSameAsAjv(schema);
  });

  it("the corpus holds invalid schemas of both dialects, and a $schema Ajv does not know", () => {
    const verdicts = metaCorpus.map(([, schema]) => ajvOutcome(schema, schemaDialectOf(schema)!));
    const invalid = metaCorpus.filter((_, index) => "valid" in verdicts[index]! && !(verdicts[index] as { valid: boolean }).valid);
    expect(invalid.length).toBeGreaterThan(25);
    expect(invalid.some(([, schema]) => schemaDialectOf(schema) === "draft-07")).toBe(true);
    expect(verdicts.filter((verdict) => "threw" in verdict)).toEqual([
      { threw: "Error", message: 'no schema with key or ref "https://json-schema.org/draft-07/schema"' },
      { threw: "Error", message: 'no schema with key or ref "https://json-schema.org/draft-07/schema#"' },
    ]);
  });

  it("a cycle and 20,000 levels of nesting overflow the stack in both (checkSchemaSubset: could not be meta-validated)", () => {
    const { cyclic, deep, wide, polluted } = pathologicalSchemas();
    for (const schema of [cyclic, deep]) {
      expect(expectSameAsAjv(schema as object)).toMatchObject({ threw: "RangeError" });
      expect(checkSchemaSubset(schema)).toEqual([{ path: [], message: "schema could not be meta-validated: it nests too deeply or contains a cycle" }]);
    }
    expect(expectSameAsAjv(wide as object)).toEqual({ valid: true, errors: [] });
    expectSameAsAjv(polluted as object);
  });

  it("seeded random schema-like JSON (1,000 values, both dialects)", () => {
    const next = seededRandom(18);
    const keywords = [
      "type", "properties", "required", "additionalProperties", "items", "prefixItems", "enum", "const", "anyOf", "oneOf",
      "allOf", "not", "minimum", "maxLength", "pattern", "format", "$ref", "$defs", "definitions", "$id", "$anchor",
      "dependencies", "dependentRequired", "if", "then", "contains", "minContains", "unevaluatedItems", "title", "x",
    ];
    const scalars: unknown[] = ["object", "array", "string", "integer", "nope", "#", "", true, false, null, 0, -1, 2, 1.5];
    const randomJson = (depth: number): unknown => {
      const choice = next();
      if (depth > 4 || choice < 0.35) return scalars[Math.floor(next() * scalars.length)];
      if (choice < 0.5) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [keywords[Math.floor(next() * keywords.length)]!, randomJson(depth + 1)]));
    };
    let invalid = 0;
    for (let run = 0; run < 1_000; run += 1) {
      const body = randomJson(1);
      const schema = typeof body === "object" && body !== null && !Array.isArray(body) ? body : { items: body };
      const outcome = expectSameAsAjv(run % 3 === 0 ? { $schema: draft07, ...schema } : schema);
      if ("valid" in outcome && !outcome.valid) invalid += 1;
    }
    expect(invalid).toBeGreaterThan(200);
  });
});
