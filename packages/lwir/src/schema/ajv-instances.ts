import { Ajv, type ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import _addFormats from "ajv-formats";

// Under NodeNext the CommonJS default export of ajv-formats is typed as a namespace.
const addFormats = _addFormats as unknown as typeof _addFormats.default;

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

type AjvInstance = Ajv | Ajv2020;
const instances = new Map<SchemaDialect, AjvInstance>();

/** One shared Ajv per dialect (allErrors, non-strict, formats known); created on first use. */
export function ajvFor(dialect: SchemaDialect): AjvInstance {
  let instance = instances.get(dialect);
  if (instance === undefined) {
    // addUsedSchema: false keeps schemas with the same `$id` from colliding in Ajv's registry.
    const options = { strict: false, allErrors: true, addUsedSchema: false } as const;
    instance = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
    addFormats(instance);
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
