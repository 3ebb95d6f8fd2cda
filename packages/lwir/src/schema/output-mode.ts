import type { JsonSchema } from "./json-schema.js";
import { isAiSdkSchema, isZodSchema, normalizeSchema } from "./normalize-schema.js";
import { OutputModeError, SchemaNormalizationError } from "./schema-errors.js";

/** Optional labels every output mode may carry (passed to the model as the output's name/description). */
type OutputModeLabels = { readonly name?: string; readonly description?: string };

/** An LWIR step output mode (lwir.md §3). */
export type LwirOutputMode =
  | ({ readonly mode: "text" } & OutputModeLabels)
  | ({ readonly mode: "object"; readonly schema: JsonSchema } & OutputModeLabels)
  /** `schema` describes the whole array (`{ type: "array", items }`). */
  | ({ readonly mode: "array"; readonly schema: JsonSchema } & OutputModeLabels)
  | ({ readonly mode: "choice"; readonly values: readonly string[] } & OutputModeLabels)
  | ({ readonly mode: "json"; readonly schema?: JsonSchema } & OutputModeLabels);

export type LwirOutputModeName = LwirOutputMode["mode"];

/** The authoring shape of seed 000 (`kind`, and `element` = the item schema for arrays). */
export type OutputModeKindSpec =
  | ({ readonly kind: "text" } & OutputModeLabels)
  | ({ readonly kind: "object"; readonly schema: unknown } & OutputModeLabels)
  | ({ readonly kind: "array"; readonly element: unknown } & OutputModeLabels)
  | ({ readonly kind: "choice"; readonly values: readonly string[] } & OutputModeLabels)
  | ({ readonly kind: "json"; readonly schema?: unknown } & OutputModeLabels);

/** The LWIR shape with any schema-like values (Zod, AI SDK wrappers) still to normalize. */
export type OutputModeLwirSpec =
  | ({ readonly mode: "text" } & OutputModeLabels)
  | ({ readonly mode: "object"; readonly schema: unknown } & OutputModeLabels)
  | ({ readonly mode: "array"; readonly schema: unknown } & OutputModeLabels)
  | ({ readonly mode: "choice"; readonly values: readonly string[] } & OutputModeLabels)
  | ({ readonly mode: "json"; readonly schema?: unknown } & OutputModeLabels);

/** Everything `normalizeOutputMode` accepts: the LWIR shape, the seed `kind` shape, or a bare schema (→ object mode). */
export type OutputModeSpec = OutputModeLwirSpec | OutputModeKindSpec | JsonSchema | object;

/** The mode a spec normalizes to, so `normalizeOutputMode({ kind: "text" })` is typed as the text mode. */
export type NormalizedOutputMode<TSpec> = TSpec extends { readonly mode: infer TMode }
  ? Extract<LwirOutputMode, { readonly mode: TMode }>
  : TSpec extends { readonly kind: infer TKind }
    ? TKind extends LwirOutputModeName
      ? Extract<LwirOutputMode, { readonly mode: TKind }>
      : LwirOutputMode
    : Extract<LwirOutputMode, { readonly mode: "object" }>;

const modeNames: readonly string[] = ["text", "object", "array", "choice", "json"];

function fail(message: string, cause?: unknown): never {
  throw new OutputModeError(`Invalid output mode: ${message}`, cause === undefined ? {} : { cause });
}

function labelsOf(spec: Record<string, unknown>): OutputModeLabels {
  const labels: { name?: string; description?: string } = {};
  for (const key of ["name", "description"] as const) {
    const value = spec[key];
    if (value === undefined) continue;
    if (typeof value !== "string") fail(`"${key}" must be a string, got ${value === null ? "null" : typeof value}.`);
    labels[key] = value;
  }
  return labels;
}

function schemaOf(value: unknown, where: string): JsonSchema {
  try {
    return normalizeSchema(value);
  } catch (error) {
    if (error instanceof SchemaNormalizationError) fail(`${where}: ${error.message}`, error);
    throw error;
  }
}

function choiceValues(values: unknown): readonly string[] {
  if (!Array.isArray(values) || values.length === 0) fail('choice mode needs "values": a non-empty array of strings.');
  const seen = new Set<string>();
  for (const value of values) {
    if (typeof value !== "string" || value.length === 0) fail(`choice "values" must be non-empty strings, got ${JSON.stringify(value)}.`);
    if (seen.has(value)) fail(`choice "values" must be distinct; "${value}" appears twice.`);
    seen.add(value);
  }
  return [...seen];
}

function isArraySchema(schema: JsonSchema): boolean {
  return typeof schema === "object" && schema.type === "array";
}

// The element's `$schema` moves to the array schema, so the dialect applies to the whole schema.
function arrayOf(element: JsonSchema): JsonSchema {
  if (typeof element === "boolean" || !Object.hasOwn(element, "$schema")) return { type: "array", items: element };
  const { $schema, ...items } = element;
  return { $schema, type: "array", items };
}

function isSchemaLike(spec: object): boolean {
  return isZodSchema(spec) || isAiSdkSchema(spec) || (!("mode" in spec) && !("kind" in spec));
}

/**
 * An AI SDK output spec (ai 6): `Output.text()`, `Output.json()`, `Output.object({ schema })`,
 * `Output.array({ element })`, `Output.choice({ options })`. Its JSON schema is only reachable
 * through the `responseFormat` promise, so the ones with a schema normalize asynchronously.
 */
export type AiSdkOutputLike = {
  readonly name: "text" | "json" | "object" | "array" | "choice";
  readonly responseFormat: PromiseLike<unknown>;
};

export function isAiSdkOutput(value: unknown): value is AiSdkOutputLike {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { name?: unknown; responseFormat?: { then?: unknown }; parseCompleteOutput?: unknown };
  return typeof candidate.name === "string" && modeNames.includes(candidate.name) && typeof candidate.responseFormat?.then === "function" && typeof candidate.parseCompleteOutput === "function";
}

/** `normalizeOutputMode` that also takes `Output.object/array/choice(…)` of the AI SDK (their schema resolves asynchronously). */
export async function normalizeOutputModeAsync(spec: unknown): Promise<LwirOutputMode> {
  if (!isAiSdkOutput(spec)) return normalizeOutputMode(spec);
  const format = (await spec.responseFormat) as { type?: unknown; schema?: unknown; name?: unknown; description?: unknown } | undefined;
  const labels = typeof format === "object" && format !== null ? labelsOf({ name: format.name, description: format.description }) : {};
  // A plain JSON copy: ai may hand back an object that still carries its validator's internals.
  const schema = (format?.schema === undefined ? undefined : JSON.parse(JSON.stringify(format.schema))) as { properties?: Record<string, { items?: unknown; enum?: unknown }> } | undefined;
  switch (spec.name) {
    case "text":
    case "json":
      return { mode: spec.name, ...labels };
    case "object":
      if (schema === undefined) fail("Output.object() resolved without a schema.");
      return { mode: "object", schema: schemaOf(schema, "Output.object() schema"), ...labels };
    case "array": {
      // ai wraps the array as { elements: [...] } for providers that need an object at the top.
      const items = schema?.properties?.["elements"]?.items;
      if (items === undefined) fail("Output.array() resolved without an element schema.");
      return { mode: "array", schema: arrayOf(schemaOf(items, "Output.array() element schema")), ...labels };
    }
    case "choice":
      return { mode: "choice", values: choiceValues(schema?.properties?.["result"]?.enum), ...labels };
  }
}

/**
 * Normalizes an output-mode spec to the LWIR shape (§3): accepts `{ mode, … }`, the seed's
 * `{ kind, … }` (arrays given by their `element` schema) and a bare schema (object mode). Schemas
 * go through `normalizeSchema`. Throws `OutputModeError` (code `output.invalid`) naming the problem.
 */
export function normalizeOutputMode<const TSpec extends OutputModeSpec>(spec: TSpec): NormalizedOutputMode<TSpec>;
export function normalizeOutputMode(spec: unknown): LwirOutputMode;
export function normalizeOutputMode(spec: unknown): LwirOutputMode {
  if (typeof spec === "boolean") return { mode: "object", schema: spec };
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    return fail(`expected { mode: "text" | "object" | "array" | "choice" | "json", … }, a { kind, … } spec or a schema, got ${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec}.`);
  }
  if (isAiSdkOutput(spec)) {
    if (spec.name === "text" || spec.name === "json") return { mode: spec.name };
    return fail(
      `Output.${spec.name}() of the AI SDK keeps its schema behind a promise: normalize it with normalizeOutputModeAsync(spec), or give the same output as ${spec.name === "object" ? "the schema itself (or { kind: \"object\", schema })" : spec.name === "array" ? '{ kind: "array", element }' : '{ kind: "choice", values }'}.`,
    );
  }
  if (isSchemaLike(spec)) return { mode: "object", schema: schemaOf(spec, "the schema") };
  const record = spec as Record<string, unknown>;
  const usesKind = !("mode" in record);
  const field = usesKind ? "kind" : "mode";
  const mode = record[field];
  if (typeof mode !== "string" || !modeNames.includes(mode)) {
    return fail(`"${field}" must be one of ${modeNames.map((name) => `"${name}"`).join(", ")}, got ${JSON.stringify(mode)}.`);
  }
  const labels = labelsOf(record);
  switch (mode) {
    case "text":
      return { mode: "text", ...labels };
    case "object":
      if (record.schema === undefined) fail('object mode needs a "schema".');
      return { mode: "object", schema: schemaOf(record.schema, "object schema"), ...labels };
    case "array": {
      if (usesKind) {
        if (record.element === undefined) fail('array kind needs an "element" schema (the schema of one item).');
        return { mode: "array", schema: arrayOf(schemaOf(record.element, "array element schema")), ...labels };
      }
      if (record.schema === undefined) fail('array mode needs a "schema" describing the whole array.');
      const schema = schemaOf(record.schema, "array schema");
      if (!isArraySchema(schema)) {
        fail('array mode needs a schema with type "array" (the schema of the whole array); to give the item schema use { kind: "array", element }.');
      }
      return { mode: "array", schema, ...labels };
    }
    case "choice":
      return { mode: "choice", values: choiceValues(record.values), ...labels };
    default:
      return record.schema === undefined
        ? { mode: "json", ...labels }
        : { mode: "json", schema: schemaOf(record.schema, "json schema"), ...labels };
  }
}
