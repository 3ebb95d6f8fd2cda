import { createRequire } from "node:module";
import { canonicalJson, formatJsonPath } from "@little-stack/canonical";
import { checkSchemaSubset } from "./check-schema-subset.js";
import type { JsonSchema } from "./json-schema.js";
import { SchemaNormalizationError } from "./schema-errors.js";

/** A Zod v4 schema, recognised by its `_zod` internals (zod and zod/mini alike). */
export type ZodSchemaLike = { readonly _zod: { readonly def: unknown } };

/** The object AI SDK's `jsonSchema()` / `zodSchema()` return: the JSON Schema sits in `jsonSchema`. */
export type AiSdkSchemaLike = { readonly jsonSchema: unknown };

/** Everything `normalizeSchema` accepts. */
export type SchemaLike = JsonSchema | ZodSchemaLike | AiSdkSchemaLike;

const aiSdkSchemaSymbol = Symbol.for("vercel.ai.schema");
const howToFix =
  "Pass a JSON Schema object, a boolean schema, a Zod v4 schema, or an AI SDK jsonSchema(...) wrapper.";

export function isZodSchema(value: unknown): value is ZodSchemaLike {
  if (typeof value !== "object" || value === null || !("_zod" in value)) return false;
  const internals = (value as { _zod: unknown })._zod;
  return typeof internals === "object" && internals !== null && "def" in internals;
}

// `ai` is not a dependency: recognise its schema objects by their registered symbol, or by the
// trio of fields they carry (a JSON Schema never has these at its top level).
export function isAiSdkSchema(value: unknown): value is AiSdkSchemaLike {
  if (typeof value !== "object" || value === null || !("jsonSchema" in value)) return false;
  if ((value as Record<symbol, unknown>)[aiSdkSchemaSymbol] === true) return true;
  return "_type" in value && "validate" in value;
}

function describeGiven(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "function") return `a function${value.name ? ` (${value.name})` : ""}`;
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value} (${JSON.stringify(value)?.slice(0, 40) ?? String(value)})`;
  const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const name = prototype?.constructor?.name;
  return name && name !== "Object" ? `an instance of ${name}` : "an object";
}

function unsupported(given: string, advice: string): SchemaNormalizationError {
  return new SchemaNormalizationError("schema.unsupported_input", `Cannot use ${given} as a schema: ${advice} ${howToFix}`, {
    details: { given },
  });
}

type ZodModule = { toJSONSchema: (schema: unknown, options?: Record<string, unknown>) => unknown };

let zodModule: ZodModule | undefined;

// zod is an optional peer: loaded synchronously, and only when a Zod schema actually shows up.
function loadZod(): ZodModule {
  if (zodModule !== undefined) return zodModule;
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)("zod");
  } catch (error) {
    throw new SchemaNormalizationError(
      "schema.zod_unavailable",
      "A Zod schema was given but the `zod` package cannot be loaded. Install zod v4 next to @little-stack/lwir (`pnpm add zod@^4`), or pass z.toJSONSchema(schema) yourself.",
      { cause: error },
    );
  }
  if (typeof (loaded as Partial<ZodModule>).toJSONSchema !== "function") {
    throw new SchemaNormalizationError(
      "schema.zod_unavailable",
      "The installed `zod` has no toJSONSchema(): @little-stack/lwir needs zod v4. Upgrade zod, or pass a JSON Schema.",
    );
  }
  zodModule = loaded as ZodModule;
  return zodModule;
}

function fromZod(schema: ZodSchemaLike): unknown {
  const zod = loadZod();
  try {
    return zod.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "throw" });
  } catch (error) {
    throw new SchemaNormalizationError(
      "schema.unsupported_input",
      `Cannot convert the Zod schema to JSON Schema: ${error instanceof Error ? error.message : String(error)}. Use JSON-compatible Zod types (no dates, bigints, functions, transforms).`,
      { cause: error },
    );
  }
}

function fromAiSdk(schema: AiSdkSchemaLike): unknown {
  let inner: unknown;
  try {
    inner = schema.jsonSchema;
  } catch (error) {
    throw new SchemaNormalizationError(
      "schema.unsupported_input",
      `The AI SDK schema wrapper failed to produce its JSON Schema: ${error instanceof Error ? error.message : String(error)}.`,
      { cause: error },
    );
  }
  if (typeof inner === "object" && inner !== null && typeof (inner as { then?: unknown }).then === "function") {
    throw unsupported("an AI SDK schema whose JSON Schema is produced asynchronously", "await its `jsonSchema` first and pass the result.");
  }
  return inner;
}

function plainJsonSchema(value: unknown, given: string, converted: boolean): JsonSchema {
  if (typeof value === "boolean") return value;
  if (typeof value === "function") {
    throw unsupported(given, "live validator functions cannot be stored in LWIR; convert the validator to JSON Schema first.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw unsupported(given, "a schema must be an object or a boolean.");
  // Converted output is read by its own enumerable keys only (zod tags it with a hidden `~standard`).
  if (!converted && "~standard" in value) {
    const vendor = (value as { "~standard"?: { vendor?: unknown } })["~standard"]?.vendor;
    throw unsupported(
      `a Standard Schema validator${typeof vendor === "string" ? ` from ${vendor}` : ""}`,
      "live validators cannot be stored in LWIR; convert it to JSON Schema with its library (e.g. toJsonSchema()).",
    );
  }
  if (!converted && "_def" in value && ("safeParse" in value || "parse" in value)) {
    throw unsupported("a Zod 3 schema", "only Zod v4 schemas are supported; upgrade zod or pass a JSON Schema.");
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!converted && prototype !== Object.prototype && prototype !== null) {
    throw unsupported(given, "only plain JSON objects can be schemas.");
  }
  try {
    canonicalJson(value);
  } catch (error) {
    throw new SchemaNormalizationError("schema.invalid", `The schema is not plain JSON: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  // A plain copy, so later changes to the caller's object cannot change a registered schema.
  return JSON.parse(JSON.stringify(value)) as JsonSchema;
}

/**
 * Turns a JSON Schema object, a boolean schema, a Zod v4 schema (via zod's toJSONSchema) or an
 * AI SDK `jsonSchema()` wrapper into a plain JSON Schema inside the LWIR subset (§5). Throws
 * `SchemaNormalizationError` naming what was given, or the keyword outside the subset and where.
 */
export function normalizeSchema(schemaLike: unknown): JsonSchema {
  const given = describeGiven(schemaLike);
  let candidate: unknown = schemaLike;
  let source = "JSON Schema";
  if (isZodSchema(schemaLike)) {
    candidate = fromZod(schemaLike);
    source = "Zod schema (converted with toJSONSchema)";
  } else if (isAiSdkSchema(schemaLike)) {
    candidate = fromAiSdk(schemaLike);
    source = "AI SDK jsonSchema()";
  }
  const converted = candidate !== schemaLike;
  const schema = plainJsonSchema(candidate, converted ? `${describeGiven(candidate)} from the ${source}` : given, converted);
  const problems = checkSchemaSubset(schema);
  if (problems.length > 0) {
    const listed = problems
      .slice(0, 5)
      .map((problem) => `${formatJsonPath(problem.path)}: ${problem.message}`)
      .join("; ");
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : "";
    throw new SchemaNormalizationError("schema.invalid", `The ${source} is outside the LWIR JSON Schema subset: ${listed}${more}.`, {
      details: { problems: problems.map((problem) => ({ path: formatJsonPath(problem.path), message: problem.message })) },
    });
  }
  return schema;
}
