import type { ErrorObject } from "ajv";

/**
 * An Ajv validate function compiled ahead of time (Ajv's standalone code, see
 * meta-schema-*.generated.ts): the errors of its last call are on `errors`, as on a function
 * `ajv.compile` returns.
 */
export type PrecompiledValidator = {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
};
