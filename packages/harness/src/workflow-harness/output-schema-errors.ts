import { LittleWorkflowError } from "@little-stack/canonical";

/** One way an output differs from its step's output mode. `path` is JSONPath-like from `$`. */
export type OutputMismatch = { readonly path: string; readonly message: string };

/** The mismatches as one line (`$.a: …; $.b: …`), the first ten and how many more. */
export function listMismatches(mismatches: readonly OutputMismatch[]): string {
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

/**
 * An ai.generate step's model answer does not match the step's output mode, also after the one
 * repair turn (`repairTurns` says whether it was taken). `mismatches` are those of the last answer.
 */
export class AiOutputSchemaError extends LittleWorkflowError {
  readonly mismatches: readonly OutputMismatch[];
  readonly repairTurns: number;

  constructor(options: { readonly stepId: string; readonly mismatches: readonly OutputMismatch[]; readonly repairTurns?: number }) {
    const repairTurns = options.repairTurns ?? 0;
    const after = repairTurns === 0 ? "" : `, also after ${repairTurns} repair turn${repairTurns === 1 ? "" : "s"} naming the mismatch`;
    super(
      "harness.ai_output_schema_mismatch",
      `ai.generate step "${options.stepId}" got a model answer that does not match its output schema${after}: ${listMismatches(options.mismatches)}. Tighten the prompt or the schema, or retry the step.`,
      { details: { stepId: options.stepId, mismatches: options.mismatches, repairTurns } },
    );
    this.mismatches = options.mismatches;
    this.repairTurns = repairTurns;
  }
}
