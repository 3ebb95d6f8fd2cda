import { formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import { createSchemaValidator, type JsonSchema, type JsonSchemaObject } from "@little-stack/lwir";
import { SchemaSampleError } from "./schema-sample-error.js";

type Sampled = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly path: JsonPathSegment[]; readonly problem: string };

/** Where the sampler is: the root's dialect, the path, the name a string is made from, and which of several siblings. */
type Walk = {
  readonly dialect: string | undefined;
  readonly path: JsonPathSegment[];
  readonly label: string;
  /** 0 for the first item of an array, 1 for the second …: keeps sibling items (and item keys) distinct. */
  readonly variant: number;
};

function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ok = (value: unknown): Sampled => ({ ok: true, value });
const fail = (walk: Walk, problem: string): Sampled => ({ ok: false, path: walk.path, problem });

/** JSON values out of a schema (const/enum) are copied so a caller never mutates the schema. */
function copy(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Whether `value` fits a subschema, judged by the same validator the runtime uses (root dialect kept). */
function fits(schema: unknown, value: unknown, walk: Walk): boolean {
  if (typeof schema === "boolean") return schema;
  if (!isSchemaObject(schema)) return false;
  const withDialect = walk.dialect === undefined || Object.hasOwn(schema, "$schema") ? schema : { ...schema, $schema: walk.dialect };
  try {
    return createSchemaValidator(withDialect)(value).valid;
  } catch {
    return false;
  }
}

const objectKeywords = ["properties", "required", "additionalProperties", "propertyNames"];
const arrayKeywords = ["items", "minItems", "maxItems"];
const stringKeywords = ["minLength", "maxLength"];
const numberKeywords = ["minimum", "maximum"];

/**
 * The types to try, in order: the listed types with `null` last (so `["string", "null"]`, the
 * strict form of an optional field, gives a string); with no `type`, the one its keywords imply,
 * else "any".
 */
function typeOrder(schema: JsonSchemaObject): string[] {
  const listed = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((type): type is string => typeof type === "string") : undefined;
  if (listed !== undefined) return [...listed.filter((type) => type !== "null"), ...listed.filter((type) => type === "null")];
  const has = (keywords: readonly string[]) => keywords.some((keyword) => Object.hasOwn(schema, keyword));
  if (has(objectKeywords)) return ["object"];
  if (has(arrayKeywords)) return ["array"];
  if (has(stringKeywords)) return ["string"];
  if (has(numberKeywords)) return ["number"];
  return ["any"];
}

function codePoints(text: string): string[] {
  return [...text];
}

/** "sample <label>", "sample <label> 2" for the second sibling, fitted to minLength/maxLength. */
function sampleText(schema: JsonSchemaObject, walk: Walk): Sampled {
  const label = walk.label.replace(/[^A-Za-z0-9 _-]+/g, " ").trim() || "text";
  let text = codePoints(`sample ${label}${walk.variant > 0 ? ` ${walk.variant + 1}` : ""}`);
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  if (max !== undefined && min > max) return fail(walk, `minLength ${min} exceeds maxLength ${max}`);
  if (max !== undefined && text.length > max) text = text.slice(0, max);
  if (text.length < min) text = [...text, ...codePoints("x".repeat(min - text.length))];
  return ok(text.join(""));
}

/**
 * The maximum when there is one (scores at their best end loops like "repeat while score < 8"),
 * else the minimum, else 1; bounds at ±MAX_SAFE_INTEGER (Zod's integer bounds) count as none.
 */
function sampleNumber(schema: JsonSchemaObject, integer: boolean, walk: Walk): Sampled {
  const rawMin = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const rawMax = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const min = rawMin === undefined ? undefined : integer ? Math.ceil(rawMin) : rawMin;
  const max = rawMax === undefined ? undefined : integer ? Math.floor(rawMax) : rawMax;
  if (min !== undefined && max !== undefined && min > max) return fail(walk, `no ${integer ? "integer" : "number"} lies between minimum ${String(rawMin)} and maximum ${String(rawMax)}`);
  // Zod's z.number().int() bounds every integer by ±MAX_SAFE_INTEGER: those say "any integer", not "prefer this".
  const preferred = (bound: number | undefined) => (bound !== undefined && Math.abs(bound) < Number.MAX_SAFE_INTEGER ? bound : undefined);
  const inRange = (value: number) => (min === undefined || value >= min) && (max === undefined || value <= max);
  const wanted = preferred(max) ?? preferred(min) ?? 1;
  const base = inRange(wanted) ? wanted : (max ?? min ?? 1);
  const varied = preferred(max) !== undefined ? base - walk.variant : base + walk.variant;
  return ok(inRange(varied) ? varied : base);
}

function sampleArray(schema: JsonSchemaObject, walk: Walk): Sampled {
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : undefined;
  if (max !== undefined && min > max) return fail(walk, `minItems ${min} exceeds maxItems ${max}`);
  const itemWalk = (index: number): Walk => ({ ...walk, path: [...walk.path, index], variant: index });
  if (Array.isArray(schema.items)) {
    // draft-07 tuple form: one schema per position; positions past the tuple are unconstrained.
    const positions = schema.items as readonly JsonSchema[];
    const count = Math.max(min, max === undefined ? positions.length : Math.min(positions.length, max));
    const values: unknown[] = [];
    for (let index = 0; index < count; index += 1) {
      const sampled = sampleNode(positions[index] ?? true, { ...walk, path: [...walk.path, index] });
      if (!sampled.ok) return sampled;
      values.push(sampled.value);
    }
    return ok(values);
  }
  // One item unless the bounds say otherwise: enough to fan out over, without duplicate keys.
  const count = max === undefined ? Math.max(min, 1) : Math.min(Math.max(min, 1), max);
  const itemSchema = (schema.items ?? true) as JsonSchema;
  const values: unknown[] = [];
  for (let index = 0; index < count; index += 1) {
    const sampled = sampleNode(itemSchema, itemWalk(index));
    if (!sampled.ok) {
      if (index >= min) break;
      return sampled;
    }
    values.push(sampled.value);
  }
  return ok(values);
}

/** Every declared property (optional ones too, unless no value fits them), then required names the properties do not declare. */
function sampleObject(schema: JsonSchemaObject, walk: Walk): Sampled {
  const properties = isSchemaObject(schema.properties) ? (schema.properties as Readonly<Record<string, JsonSchema>>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  const names = schema.propertyNames;
  const entries: [string, unknown][] = [];
  const property = (key: string, propertySchema: JsonSchema): Sampled | undefined => {
    const at: Walk = { ...walk, path: [...walk.path, key], label: key };
    if (names !== undefined && !fits(names, key, walk)) {
      return required.has(key) ? fail(at, `the required property name "${key}" does not fit propertyNames`) : undefined;
    }
    const sampled = sampleNode(propertySchema, at);
    if (sampled.ok) entries.push([key, sampled.value]);
    else if (required.has(key)) return sampled;
    return undefined;
  };
  for (const [key, propertySchema] of Object.entries(properties)) {
    const problem = property(key, propertySchema);
    if (problem !== undefined) return problem;
  }
  const extra = (isSchemaObject(schema.additionalProperties) || typeof schema.additionalProperties === "boolean" ? schema.additionalProperties : true) as JsonSchema;
  for (const key of required) {
    if (Object.hasOwn(properties, key)) continue;
    const problem = property(key, extra);
    if (problem !== undefined) return problem;
  }
  return ok(Object.fromEntries(entries));
}

function sampleType(schema: JsonSchemaObject, type: string, walk: Walk): Sampled {
  switch (type) {
    case "null":
      return ok(null);
    case "boolean":
      // true: "approved", "ok", "done" end the loops that repeat while they are false.
      return ok(true);
    case "integer":
      return sampleNumber(schema, true, walk);
    case "number":
      return sampleNumber(schema, false, walk);
    case "string":
    case "any":
      return sampleText(schema, walk);
    case "array":
      return sampleArray(schema, walk);
    case "object":
      return sampleObject(schema, walk);
    default:
      return fail(walk, `unknown type ${JSON.stringify(type)}`);
  }
}

function typesOf(schema: JsonSchemaObject): string[] | undefined {
  return typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
}

/** The types both schemas allow (an integer is a number). */
function commonTypes(left: readonly string[], right: readonly string[]): string[] {
  return left.flatMap((type) => {
    if (right.includes(type)) return [type];
    if (type === "number" && right.includes("integer")) return ["integer"];
    if (type === "integer" && right.includes("number")) return ["integer"];
    return [];
  });
}

/** A branch of anyOf/oneOf together with its siblings: what a value must satisfy to pass both. */
function mergeSchemas(outer: JsonSchemaObject, branch: JsonSchemaObject): JsonSchemaObject {
  const merged: Record<string, unknown> = { ...outer, ...branch };
  if (isSchemaObject(outer.properties) && isSchemaObject(branch.properties)) merged.properties = { ...outer.properties, ...branch.properties };
  if (Array.isArray(outer.required) || Array.isArray(branch.required)) {
    merged.required = [...new Set([...((outer.required as string[] | undefined) ?? []), ...((branch.required as string[] | undefined) ?? [])])];
  }
  const outerTypes = typesOf(outer);
  const branchTypes = typesOf(branch);
  if (outerTypes !== undefined && branchTypes !== undefined) merged.type = commonTypes(outerTypes, branchTypes);
  return merged;
}

/** The first branch (with the sibling keywords) whose sample fits the whole schema — for oneOf, exactly one branch. */
function sampleBranches(schema: JsonSchemaObject, keyword: "anyOf" | "oneOf", walk: Walk): Sampled {
  const branches = schema[keyword] as readonly JsonSchema[];
  const { [keyword]: _branches, ...outer } = schema;
  let firstProblem: Sampled | undefined;
  for (const [index, branch] of branches.entries()) {
    if (branch === false) continue;
    const merged = branch === true ? outer : isSchemaObject(branch) ? mergeSchemas(outer, branch) : undefined;
    if (merged === undefined) continue;
    const sampled = sampleNode(merged, walk);
    if (sampled.ok && fits(schema, sampled.value, walk)) return sampled;
    firstProblem ??= sampled.ok ? fail(walk, `the sample of ${keyword} branch ${index} does not fit the whole schema`) : sampled;
  }
  return firstProblem ?? fail(walk, `no ${keyword} branch admits a value`);
}

function sampleNode(schema: JsonSchema, walk: Walk): Sampled {
  if (schema === true) return sampleText({}, walk);
  if (schema === false) return fail(walk, "the schema is false");
  if (!isSchemaObject(schema)) return fail(walk, "not a schema (an object or a boolean)");
  if (Array.isArray(schema.anyOf)) return sampleBranches(schema, "anyOf", walk);
  if (Array.isArray(schema.oneOf)) return sampleBranches(schema, "oneOf", walk);
  if (Object.hasOwn(schema, "const")) return fits(schema, schema.const, walk) ? ok(copy(schema.const)) : fail(walk, "the const does not fit the other keywords");
  if (Array.isArray(schema.enum)) {
    const index = schema.enum.findIndex((candidate) => fits(schema, candidate, walk));
    if (index >= 0) return ok(copy(schema.enum[index]));
    return fail(walk, schema.enum.length === 0 ? "the enum is empty" : "no enum value fits the other keywords");
  }
  let firstProblem: Sampled | undefined;
  for (const type of typeOrder(schema)) {
    const sampled = sampleType(schema, type, walk);
    if (sampled.ok) return sampled;
    firstProblem ??= sampled;
  }
  return firstProblem ?? fail(walk, "the type list is empty");
}

/**
 * A deterministic value that fits `schema`, a JSON Schema of the LWIR subset (lwir.md §5): `type`
 * (arrays of types too), `properties`/`required`/`additionalProperties`, `items`/`minItems`/
 * `maxItems`, `enum`/`const`, `anyOf`/`oneOf` (the first branch that fits), `minimum`/`maximum`,
 * `minLength`/`maxLength`, `propertyNames` and boolean schemas. The same schema always gives the
 * same value:
 *
 * - strings are `"sample <property name>"` (`"sample text"` at the top; the second item of an
 *   array `"… 2"`), cut or padded with `x` to the length bounds;
 * - booleans are `true`; numbers are the `maximum` when there is one, else the `minimum`, else 1
 *   (so a loop that repeats while `approved === false` or `score < 8` ends after one pass);
 * - objects carry every declared property (optional ones too); arrays one item, or `minItems`;
 * - `enum` gives its first value that fits, `const` itself, a type list its first non-null type.
 *
 * The value is checked with the runtime's validator (`createSchemaValidator`) before it is
 * returned; a schema with no value the sampler can build throws `SchemaSampleError`
 * (`testing.schema_sample_failed`), naming the path.
 */
export function sampleFromSchema(schema: JsonSchema): unknown {
  if (typeof schema === "boolean") {
    if (!schema) throw new SchemaSampleError({ path: "$", problem: "the schema is false", schema });
    return "sample text";
  }
  const dialect = typeof schema.$schema === "string" ? schema.$schema : undefined;
  const sampled = sampleNode(schema, { dialect, path: [], label: "text", variant: 0 });
  if (!sampled.ok) throw new SchemaSampleError({ path: formatJsonPath(sampled.path), problem: sampled.problem, schema });
  let check: ReturnType<ReturnType<typeof createSchemaValidator>>;
  try {
    check = createSchemaValidator(schema)(sampled.value);
  } catch (error) {
    throw new SchemaSampleError({ path: "$", problem: `the schema does not compile (${error instanceof Error ? error.message : String(error)})`, schema });
  }
  if (!check.valid) {
    const problems = check.errors.map((issue) => `${issue.path} ${issue.message}`).join("; ");
    throw new SchemaSampleError({ path: check.errors[0]?.path ?? "$", problem: `the sample ${JSON.stringify(sampled.value)} does not fit (${problems})`, schema });
  }
  return sampled.value;
}
