// Schemas the subset tests run checkSchemaSubset on; meta-schema-validators.test.ts also holds the
// precompiled meta-schema validators equal to Ajv on every one of them.

/** Schemas inside the LWIR subset: checkSchemaSubset finds no problem. */
export const acceptedSchemas: readonly [name: string, schema: unknown][] = [
  ["true", true],
  ["false", false],
  ["empty object", {}],
  [
    "seed 001 ticket schema",
    {
      type: "object",
      required: ["summary", "severity"],
      properties: { summary: { type: "string" }, severity: { type: "string", enum: ["low", "medium", "high"] } },
    },
  ],
  [
    "every allowed keyword",
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "T",
      description: "D",
      examples: [{ a: "x" }],
      type: "object",
      properties: {
        a: { type: "string", minLength: 1, maxLength: 3, const: "x" },
        n: { type: "number", minimum: -5, maximum: 5 },
        list: { type: "array", items: { type: "integer" }, minItems: 0, maxItems: 2 },
        choice: { enum: ["a", "b"] },
        union: { anyOf: [{ type: "string" }, { type: "null" }] },
        oneOf: { oneOf: [{ type: "number" }, { const: "none" }] },
      },
      required: ["a"],
      additionalProperties: false,
      propertyNames: { maxLength: 10 },
    },
  ],
  ["draft-07 with a tuple items array", { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }] }],
  ["primitive type array", { type: ["string", "null"] }],
  [
    "discriminated object union",
    {
      anyOf: [
        { type: "object", properties: { kind: { const: "a" }, x: { type: "string" } }, required: ["kind"] },
        { type: "object", properties: { kind: { enum: ["b", "c"] } }, required: ["kind"] },
      ],
    },
  ],
  ["a single object branch needs no discriminator", { oneOf: [{ type: "object", properties: {} }] }],
  ["additionalProperties as a schema", { type: "object", additionalProperties: { type: "number" } }],
];

/** Schemas outside it, each with the path and message of the first problem. */
export const rejectedSchemas: readonly [name: string, schema: unknown, path: (string | number)[], message: RegExp][] = [
  ["not a schema", "string", [], /must be a JSON Schema object or a boolean, got string/],
  ["null", null, [], /got null/],
  ["array", [], [], /got an array/],
  ["meta: bad type name", { type: "objekt" }, ["type"], /keyword "type" must be one of/],
  ["meta: negative minLength", { minLength: -1 }, ["minLength"], /keyword "minLength" must be >= 0/],
  ["meta: required not an array", { required: "a" }, ["required"], /keyword "required" must be of type array/],
  ["meta: 2020-12 rejects items array", { items: [{ type: "string" }] }, ["items"], /keyword "items"/],
  ["unsupported $schema", { $schema: "http://json-schema.org/draft-04/schema#" }, ["$schema"], /keyword "\$schema" names an unsupported dialect/],
  ["$ref", { $ref: "#/$defs/a" }, ["$ref"], /keyword "\$ref" is not in the LWIR JSON Schema subset; inline/],
  ["$defs", { $defs: { a: { type: "string" } } }, ["$defs"], /keyword "\$defs"/],
  ["pattern", { type: "string", pattern: "^a" }, ["pattern"], /keyword "pattern"/],
  ["format", { type: "string", format: "email" }, ["format"], /keyword "format"/],
  ["default", { type: "string", default: "a" }, ["default"], /keyword "default"/],
  ["allOf", { allOf: [{ type: "string" }] }, ["allOf"], /keyword "allOf"/],
  ["not", { not: { type: "string" } }, ["not"], /keyword "not"/],
  ["nested unknown keyword", { type: "object", properties: { a: { type: "string", format: "uri" } } }, ["properties", "a", "format"], /keyword "format"/],
  ["keyword inside items", { type: "array", items: { type: "number", multipleOf: 2 } }, ["items", "multipleOf"], /keyword "multipleOf"/],
  ["keyword inside additionalProperties", { additionalProperties: { uniqueItems: true } }, ["additionalProperties", "uniqueItems"], /keyword "uniqueItems"/],
  ["keyword inside propertyNames", { propertyNames: { pattern: "x" } }, ["propertyNames", "pattern"], /keyword "pattern"/],
  ["keyword inside anyOf", { anyOf: [{ type: "string", format: "date" }, { type: "null" }] }, ["anyOf", 0, "format"], /keyword "format"/],
  ["required key missing from properties", { type: "object", properties: { a: {} }, required: ["a", "b"] }, ["required", 1], /keyword "required" lists "b", which is not declared in "properties"/],
  ["required without properties", { type: "object", required: ["a"] }, ["required", 0], /"a"/],
  ["type array with object", { type: ["object", "null"] }, ["type"], /a type array may not contain "object"/],
  ["type array with array", { type: ["array", "string"] }, ["type"], /may not contain "array"/],
  ["minimum above maximum", { minimum: 5, maximum: 1 }, ["minimum"], /keyword "minimum" \(5\) must not exceed "maximum" \(1\)/],
  ["minLength above maxLength", { minLength: 5, maxLength: 1 }, ["minLength"], /"minLength" \(5\) must not exceed "maxLength"/],
  ["minItems above maxItems", { minItems: 3, maxItems: 2 }, ["minItems"], /"minItems" \(3\) must not exceed "maxItems"/],
  ["anyOf mixing primitive and object", { anyOf: [{ type: "string" }, { type: "object", properties: {} }] }, ["anyOf"], /keyword "anyOf" mixes primitive and object branches/],
  ["oneOf with an array branch", { oneOf: [{ type: "string" }, { type: "array" }] }, ["oneOf", 1], /keyword "oneOf": branch 1 must be a primitive schema/],
  ["anyOf with a boolean branch", { anyOf: [true, { type: "string" }] }, ["anyOf", 0], /branch 0/],
  ["anyOf with an untyped branch", { anyOf: [{ description: "x" }, { type: "string" }] }, ["anyOf", 0], /branch 0/],
  [
    "object anyOf without discriminator",
    { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] },
    ["anyOf"],
    /must be discriminated by one property/,
  ],
  [
    "discriminator not required",
    {
      oneOf: [
        { type: "object", properties: { kind: { const: "a" } } },
        { type: "object", properties: { kind: { const: "b" } } },
      ],
    },
    ["oneOf"],
    /discriminated/,
  ],
  [
    "discriminator values overlap",
    {
      oneOf: [
        { type: "object", properties: { kind: { enum: ["a", "b"] } }, required: ["kind"] },
        { type: "object", properties: { kind: { const: "b" } }, required: ["kind"] },
      ],
    },
    ["oneOf"],
    /distinct values/,
  ],
];

/** Inputs that must not make checkSchemaSubset throw: a cycle, 20,000 levels, 200,000 properties, `__proto__` keys. */
export function pathologicalSchemas(): { cyclic: unknown; deep: unknown; wide: unknown; polluted: unknown } {
  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic.properties as Record<string, unknown>).self = cyclic;
  let deep: Record<string, unknown> = { type: "string" };
  for (let level = 0; level < 20_000; level += 1) deep = { type: "array", items: deep };
  const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 200_000 }, (_, index) => [`p${index}`, { type: "string" }])) };
  const polluted = JSON.parse('{"__proto__": {"type": "string"}, "properties": {"__proto__": {"pattern": "x"}}}') as unknown;
  return { cyclic, deep, wide, polluted };
}
