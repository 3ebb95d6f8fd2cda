import { createRequire } from "node:module";
import type { Ajv, ErrorObject, Options } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type _addFormats from "ajv-formats";

// Ajv and ajv-formats are CommonJS and cost ~60 ms to load, so they are required on first use, not
// imported: `little validate` and validateLwir never need them (meta-validation runs the
// precompiled validators of meta-schema-validators.ts), only createSchemaValidator does, and it is
// synchronous, which rules out import().
const require = createRequire(import.meta.url);

export type SchemaDialect = "2020-12" | "draft-07";

const dialectUris: Readonly<Record<string, SchemaDialect>> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2020-12/schema#": "2020-12",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "https://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft-07/schema#": "draft-07",
};

/** The dialect a schema declares with `$schema` (2020-12 when absent), or undefined if unsupported. */
export function schemaDialectOf(schema: unknown): SchemaDialect | undefined {
  if (typeof schema !== "object" || schema === null || !Object.hasOwn(schema, "$schema")) return "2020-12";
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === "string" && Object.hasOwn(dialectUris, declared) ? dialectUris[declared] : undefined;
}

export const supportedSchemaUris = Object.keys(dialectUris);

export type AjvInstance = Ajv | Ajv2020;
const instances = new Map<SchemaDialect, AjvInstance>();

/**
 * A new Ajv for a dialect with lwir's options (allErrors, non-strict, formats from ajv-formats),
 * plus `extraOptions`. scripts/generate-meta-schema-validators.ts builds its instances here too,
 * so the precompiled meta-schema validators are compiled with exactly these options.
 */
export function createAjv(dialect: SchemaDialect, extraOptions: Options = {}): AjvInstance {
  // addUsedSchema: false keeps schemas with the same `$id` from colliding in Ajv's registry.
  const options: Options = { strict: false, allErrors: true, addUsedSchema: false, ...extraOptions };
  const instance =
    dialect === "2020-12"
      ? new (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020(options)
      : new (require("ajv") as typeof import("ajv")).Ajv(options);
  const addFormats = require("ajv-formats") as typeof _addFormats.default;
  addFormats(instance);
  return instance;
}

/**
 * One shared Ajv per dialect (see createAjv); created, and Ajv loaded, on first use. It does not
 * check schemas against their meta-schema itself (`validateSchema: false`): createSchemaValidator
 * runs the precompiled meta-schema validators first, so no meta-schema is ever compiled here.
 */
export function ajvFor(dialect: SchemaDialect): AjvInstance {
  let instance = instances.get(dialect);
  if (instance === undefined) {
    instance = createAjv(dialect, { validateSchema: false });
    instances.set(dialect, instance);
  }
  return instance;
}

/** `/a/0/b~1c` → `["a", 0, "b/c"]` (numeric segments become indexes). */
export function pointerToSegments(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

/** A readable sentence for one Ajv error, with the parameters Ajv keeps out of its message. */
export function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `missing required property "${String(params.missingProperty)}"`;
    case "additionalProperties":
      return `has unexpected property "${String(params.additionalProperty)}"`;
    case "enum":
      return `must be one of ${JSON.stringify(params.allowedValues)}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "type":
      return `must be of type ${Array.isArray(params.type) ? params.type.join(" or ") : String(params.type)}`;
    default:
      return error.message ?? `fails the "${error.keyword}" keyword`;
  }
}
