import { LittleWorkflowError } from "@little-stack/canonical";

/** One way an output differs from its step's output mode. `path` is JSONPath-like from `$`. */
export type OutputMismatch = { readonly path: string; readonly message: string };

function listMismatches(mismatches: readonly OutputMismatch[]): string {
  const shown = mismatches.slice(0, 10).map((mismatch) => `${mismatch.path}: ${mismatch.message}`);
  const more = mismatches.length > shown.length ? `; and ${mismatches.length - shown.length} more` : "";
  return `${shown.join("; ")}${more}`;
}

/** A code.run step's code returned an output that does not match the step's output mode. */
export class CodeOutputSchemaError extends LittleWorkflowError {
  readonly mismatches: readonly OutputMismatch[];

  constructor(options: { readonly stepId: string; readonly mismatches: readonly OutputMismatch[] }) {
    super(
      "harness.code_output_schema_mismatch",
      `code.run step "${options.stepId}" returned an output that does not match its output schema: ${listMismatches(options.mismatches)}. Change run() so that it returns a value of the declared shape.`,
      { details: { ...options } },
    );
    this.mismatches = options.mismatches;
  }
}

/** An ai.generate step's model answer does not match the step's output mode. */
export class AiOutputSchemaError extends LittleWorkflowError {
  readonly mismatches: readonly OutputMismatch[];

  constructor(options: { readonly stepId: string; readonly mismatches: readonly OutputMismatch[] }) {
    super(
      "harness.ai_output_schema_mismatch",
      `ai.generate step "${options.stepId}" got a model answer that does not match its output schema: ${listMismatches(options.mismatches)}. Tighten the prompt or the schema, or retry the step.`,
      { details: { ...options } },
    );
    this.mismatches = options.mismatches;
  }
}
