import { LittleWorkflowError } from "@little-stack/canonical";

export type SchemaNormalizationErrorCode =
  /** The value is not something a schema can be made from (a function, a class instance, …). */
  | "schema.unsupported_input"
  /** The schema was read but falls outside the LWIR JSON Schema subset (§5). */
  | "schema.invalid"
  /** A Zod schema was given but `zod` cannot be loaded. */
  | "schema.zod_unavailable";

/** A schema-like value that cannot become an LWIR JSON Schema. */
export class SchemaNormalizationError extends LittleWorkflowError {
  declare readonly code: SchemaNormalizationErrorCode;

  constructor(code: SchemaNormalizationErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, options);
  }
}

/** A schema Ajv cannot compile into a validator (outside what JSON Schema allows). */
export class SchemaCompilationError extends LittleWorkflowError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("schema.invalid", message, options);
  }
}

/** An output-mode spec that is not one of the LWIR §3 shapes (or the seed `kind` shapes). */
export class OutputModeError extends LittleWorkflowError {
  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super("output.invalid", message, options);
  }
}
