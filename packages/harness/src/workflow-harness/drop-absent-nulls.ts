import { createSchemaValidator, type JsonSchema } from "@little-stack/lwir";

/**
 * Maps an answer written against `strictOutputSchema(schema)` back to `schema`: a `null` given for
 * an optional property whose own schema does not take null stands for "absent" (strict structured
 * outputs cannot leave a property out) and is dropped. Nothing else changes, and a null the LWIR
 * schema does accept is kept. Inside `anyOf`/`oneOf` the first branch the mapped value satisfies
 * wins; when none does, the value is returned as is and validation reports it.
 */
export function dropAbsentNulls(schema: JsonSchema, value: unknown): unknown {
  if (typeof schema === "boolean" || value === null || typeof value !== "object") return value;
  const branches = (schema.anyOf ?? schema.oneOf) as readonly JsonSchema[] | undefined;
  if (branches !== undefined) {
    for (const branch of branches) {
      const mapped = dropAbsentNulls(branch, value);
      if (createSchemaValidator(branch)(mapped).valid) return mapped;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined ? value : value.map((element: unknown) => dropAbsentNulls(items, element));
  }
  const properties = schema.properties as Readonly<Record<string, JsonSchema>> | undefined;
  if (properties === undefined) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const kept: [string, unknown][] = [];
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (property === undefined) kept.push([name, entry]);
    else if (entry !== null || required.has(name) || createSchemaValidator(property)(null).valid) kept.push([name, dropAbsentNulls(property, entry)]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(kept);
}
