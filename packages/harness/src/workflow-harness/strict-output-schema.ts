import type { JsonSchema, JsonSchemaObject } from "@little-stack/lwir";

/**
 * The schema an ai.generate answer is sent to a provider with. `strict` says whether it fits the
 * strict structured-outputs subset (OpenAI's, which `@ai-sdk/openai` and `@ai-sdk/openai-compatible`
 * request by default: `strictJsonSchema` defaults to true); when it does not, `schema` is the
 * schema as written and the request must ask for non-strict decoding.
 */
export type ProviderOutputSchema = { readonly schema: JsonSchemaObject; readonly strict: boolean };

/**
 * Strict structured outputs need every object to list all of its properties in `required` and to
 * say `additionalProperties: false`, and know `anyOf` but not `oneOf`. So for the provider:
 * an optional property becomes required and nullable (the harness drops those nulls again before
 * validating, `dropAbsentNulls`), every object with properties is closed, `oneOf` becomes `anyOf`,
 * and keywords strict mode does not take (`examples`, `propertyNames`, a nested `$schema`) are left
 * out. The answer is still validated against the LWIR schema itself, so nothing is lost: the
 * provider's schema only narrows what the model may write.
 *
 * A schema strict mode cannot express — "any value" (`true`, `{}`), an object without
 * `properties` (a map or a free-form object), an array without `items` — is returned unchanged
 * with `strict: false`.
 */
export function strictOutputSchema(schema: JsonSchemaObject): ProviderOutputSchema {
  const strict = toStrict(schema, true);
  return strict === undefined ? { schema, strict: false } : { schema: strict, strict: true };
}

const droppedKeywords = new Set(["examples", "propertyNames", "$schema", "oneOf", "anyOf", "properties", "required", "additionalProperties", "items"]);

function toStrict(schema: JsonSchema, root: boolean): JsonSchemaObject | undefined {
  if (typeof schema === "boolean") return undefined;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) if (!droppedKeywords.has(keyword)) out[keyword] = value;
  if (root && schema.$schema !== undefined) out.$schema = schema.$schema;
  const branches = (schema.anyOf ?? schema.oneOf) as readonly JsonSchema[] | undefined;
  if (branches !== undefined) {
    const strictBranches = branches.map((branch) => toStrict(branch, false));
    if (strictBranches.some((branch) => branch === undefined)) return undefined;
    out.anyOf = strictBranches;
  }
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  const properties = schema.properties as Readonly<Record<string, JsonSchema>> | undefined;
  if (properties !== undefined) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const strictProperties: Record<string, JsonSchemaObject> = {};
    for (const [name, property] of Object.entries(properties)) {
      const strictProperty = toStrict(property, false);
      if (strictProperty === undefined) return undefined;
      strictProperties[name] = required.has(name) ? strictProperty : nullable(strictProperty);
    }
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  } else if (types.includes("object")) {
    // Only a closed empty object can be written strictly; an open one is a map or free-form.
    if (schema.additionalProperties !== false) return undefined;
    Object.assign(out, { properties: {}, required: [], additionalProperties: false });
  }
  if (schema.items !== undefined) {
    const items = toStrict(schema.items as JsonSchema, false);
    if (items === undefined) return undefined;
    out.items = items;
  } else if (types.includes("array")) {
    return undefined;
  }
  // Something that constrains the kind of value; `{}` or annotations alone mean "anything".
  if (types.length === 0 && out.anyOf === undefined && out.enum === undefined && !("const" in out)) return undefined;
  return out;
}

/** `schema` or null: a primitive `type` gains "null"; anything else is wrapped in `anyOf`. */
function nullable(schema: JsonSchemaObject): JsonSchemaObject {
  const type = schema.type;
  const primitive = (entry: unknown): boolean => entry !== "object" && entry !== "array";
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? (type as string[]) : undefined;
  if (types !== undefined && types.every(primitive) && !("const" in schema) && schema.anyOf === undefined) {
    if (types.includes("null")) return schema;
    const withNull: Record<string, unknown> = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) withNull.enum = [...(schema.enum as unknown[]), null];
    return withNull;
  }
  return { anyOf: [schema, { type: "null" }] };
}
