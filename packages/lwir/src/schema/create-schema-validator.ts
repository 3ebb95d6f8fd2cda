import { formatJsonPath, sha256Digest } from "@little-stack/canonical";
import type { ValidateFunction } from "ajv";
import { ajvFor, describeAjvError, pointerToSegments, schemaDialectOf } from "./ajv-instances.js";
import type { JsonSchema } from "./json-schema.js";
import { SchemaCompilationError } from "./schema-errors.js";

export type SchemaValidationIssue = {
  /** JSONPath-like location in the validated value, from `$` (`$.items[2].name`). */
  readonly path: string;
  readonly message: string;
};

export type SchemaValidationResult = {
  readonly valid: boolean;
  readonly errors: readonly SchemaValidationIssue[];
};

export type SchemaValidator = (value: unknown) => SchemaValidationResult;

const cacheLimit = 1_000;
const compiled = new Map<string, SchemaValidator>();

function compile(schema: JsonSchema): SchemaValidator {
  const dialect = schemaDialectOf(schema);
  if (dialect === undefined) {
    throw new SchemaCompilationError(
      `Cannot compile a schema with $schema ${JSON.stringify((schema as { $schema?: unknown }).$schema)}: only JSON Schema 2020-12 and draft-07 are supported.`,
    );
  }
  let validate: ValidateFunction;
  try {
    validate = ajvFor(dialect).compile(schema);
  } catch (error) {
    throw new SchemaCompilationError(
      `Cannot compile the JSON Schema into a validator: ${error instanceof Error ? error.message : String(error)}. Check it with checkSchemaSubset().`,
      { cause: error },
    );
  }
  return (value: unknown): SchemaValidationResult => {
    if (validate(value)) return { valid: true, errors: [] };
    const errors = (validate.errors ?? []).map((error) => ({
      path: formatJsonPath(pointerToSegments(error.instancePath)),
      message: describeAjvError(error),
    }));
    return { valid: false, errors };
  };
}

/**
 * A validator for values against a JSON Schema (Ajv, all errors reported). Validators are compiled
 * once and cached by the schema's digest, so the runtime can call this for every step output.
 */
export function createSchemaValidator(schema: JsonSchema): SchemaValidator {
  const key = sha256Digest(schema);
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  const validator = compile(schema);
  // A plain bound: schemas are few per process; clearing beats tracking recency.
  if (compiled.size >= cacheLimit) compiled.clear();
  compiled.set(key, validator);
  return validator;
}
