import type { ErrorObject } from "ajv";
import type { SchemaDialect } from "./ajv-instances.js";
import { validateMetaSchema202012 } from "./meta-schema-2020-12.generated.js";
import { validateMetaSchemaDraft07 } from "./meta-schema-draft-07.generated.js";
import type { PrecompiledValidator } from "./precompiled-validator.js";

const validators: Readonly<Record<SchemaDialect, PrecompiledValidator>> = {
  "2020-12": validateMetaSchema202012,
  "draft-07": validateMetaSchemaDraft07,
};

/** The id each dialect's Ajv registers its meta-schema under (Ajv drops a trailing `#`). */
const metaSchemaIds: Readonly<Record<SchemaDialect, string>> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
};

/**
 * What `ajvFor(dialect).validateSchema(schema)` answers — the meta-schema's errors (empty = valid) —
 * from the precompiled validators (scripts/generate-meta-schema-validators.ts), so no Ajv is loaded
 * and no meta-schema compiled. Like Ajv it throws when `$schema` names a URI the dialect's Ajv does
 * not register (the https spellings of draft-07), and a RangeError on a cycle or very deep nesting.
 * meta-schema-validators.test.ts holds it equal to Ajv.
 */
export function metaSchemaErrors(schema: object, dialect: SchemaDialect): readonly ErrorObject[] {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && typeof declared !== "string") throw new Error("$schema must be a string");
  if (typeof declared === "string" && declared !== "" && declared.replace(/#\/?$/, "") !== metaSchemaIds[dialect]) {
    throw new Error(`no schema with key or ref "${declared}"`);
  }
  const validate = validators[dialect];
  if (validate(schema)) return [];
  return validate.errors ?? [];
}
