import { formatJsonPath, sha256Digest } from "@little-stack/canonical";
import type { ErrorObject, ValidateFunction } from "ajv";
import { ajvFor, describeAjvError, pointerToSegments, schemaDialectOf } from "./ajv-instances.js";
import type { JsonSchema } from "./json-schema.js";
import { metaSchemaErrors } from "./meta-schema-validators.js";
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
  // The schema is checked against its meta-schema by the precompiled validators, not by Ajv's
  // validateSchema, which compiles the 2020-12 meta-schema on first use: ~60 ms of the first run
  // of every process (ajvFor turns Ajv's own check off). Same verdict and errors (tested).
  let problems: readonly ErrorObject[];
  try {
    problems = metaSchemaErrors(schema as object, dialect);
  } catch (error) {
    throw compileFailure(error instanceof Error ? error.message : String(error), error);
  }
  if (problems.length > 0) throw compileFailure(`schema is invalid: ${ajvFor(dialect).errorsText([...problems])}`);
  let validate: ValidateFunction;
  try {
    validate = ajvFor(dialect).compile(schema);
  } catch (error) {
    throw compileFailure(error instanceof Error ? error.message : String(error), error);
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

function compileFailure(reason: string, cause?: unknown): SchemaCompilationError {
  return new SchemaCompilationError(
    `Cannot compile the JSON Schema into a validator: ${reason}. Check it with checkSchemaSubset().`,
    cause === undefined ? {} : { cause },
  );
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
