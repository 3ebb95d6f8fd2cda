/** A JSON Schema object, keyword → value (only the LWIR subset, §5, once normalized). */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** A JSON Schema: an object schema or a boolean schema (`true` accepts anything, `false` nothing). */
export type JsonSchema = boolean | JsonSchemaObject;
