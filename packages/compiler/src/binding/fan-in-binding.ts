import { formatJsonPath } from "@little-stack/canonical";
import { schemaImplicationGaps, stepOutputSchema } from "@little-stack/lwir";
import { describeImplicationGaps } from "./implication-gaps-text.js";
import { outputCandidates, type ListedStep } from "./output-candidates.js";
import type { BindingFinding } from "./binding-target.js";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const text = { type: "string" };
const artifacts = { type: "array", items: text };

/** A completed fan-in entry whose output is one of `branchOutput`'s values (lwir.md §2). */
function completedEntry(branchOutput: unknown): Json {
  return {
    type: "object",
    required: ["itemKey", "status", "output", "outputRef", "artifacts"],
    properties: { itemKey: text, status: { const: "completed" }, output: branchOutput ?? true, outputRef: text, artifacts },
    additionalProperties: false,
  };
}

/** A failed entry (all_settled only): the step error envelope. */
const failedEntry: Json = {
  type: "object",
  required: ["itemKey", "status", "error", "artifacts"],
  properties: {
    itemKey: text,
    status: { const: "failed" },
    error: {
      type: "object",
      required: ["name", "message", "causeCode", "retriable"],
      properties: { name: text, message: text, code: text, causeCode: text, retriable: { type: "boolean" } },
      additionalProperties: false,
    },
    artifacts,
  },
  additionalProperties: false,
};

/** The body steps whose output can be a branch's entry output: fanIn.outputStep, else what the branch can end on. */
function branchOutputSteps(parallel: Json): ListedStep[] {
  const body = Array.isArray(parallel.steps) ? parallel.steps : [];
  const withBlock = isRecord(parallel.with) ? parallel.with : {};
  const outputStep = isRecord(withBlock.fanIn) ? withBlock.fanIn.outputStep : undefined;
  if (typeof outputStep === "string") {
    const index = body.findIndex((step) => isRecord(step) && step.id === outputStep);
    return index < 0 ? [] : [{ step: body[index] as Json, index }];
  }
  return outputCandidates(body);
}

/**
 * `binding.fan_in_output_mismatch`: every fan-in entry a parallel step can produce must fit the
 * item schema of its output mode — the runtime validates the fan-in array against it and fails
 * the run (`step_schema_error`, never retried) otherwise. A completed entry is `{ itemKey, status:
 * "completed", output, outputRef, artifacts }` with `output` from `fanIn.outputStep` (or a step the
 * branch can end on); under all_settled a failed entry is `{ itemKey, status: "failed", error,
 * artifacts }`. So an entry schema whose `output` asks for a field the branch's output lacks, or
 * that closes the entry without declaring the six fields, is reported before the run.
 */
export function fanInFindings(lwir: Json): BindingFinding[] {
  const findings: BindingFinding[] = [];
  (Array.isArray(lwir.steps) ? lwir.steps : []).forEach((step, index) => {
    if (!isRecord(step) || step.uses !== "parallel" || !isRecord(step.output)) return;
    const arraySchema = step.output.schema;
    if (!isRecord(arraySchema) || arraySchema.items === undefined) return;
    const entrySchema = arraySchema.items;
    const withBlock = isRecord(step.with) ? step.with : {};
    const problems: string[] = [];
    for (const { step: bodyStep } of branchOutputSteps(step)) {
      const gaps = schemaImplicationGaps(completedEntry(stepOutputSchema(bodyStep)), entrySchema);
      if (gaps.length > 0) problems.push(`an entry whose output comes from "${String(bodyStep.id)}" ${describeImplicationGaps(gaps, { narrow: "the entry", wide: "the fan-in item schema" })}`);
    }
    if (withBlock.failureMode === "all_settled") {
      const gaps = schemaImplicationGaps(failedEntry, entrySchema);
      if (gaps.length > 0) problems.push(`a failed entry (all_settled) ${describeImplicationGaps(gaps, { narrow: "the entry", wide: "the fan-in item schema" })}`);
    }
    if (problems.length === 0) return;
    findings.push({
      severity: "error",
      code: "binding.fan_in_output_mismatch",
      path: formatJsonPath(["steps", index, "output", "schema", "items"]),
      message: `Parallel step "${String(step.id)}" can produce fan-in entries its output schema rejects: ${problems.join("; ")}. Put the output schema of the branch's last step (or fanIn.outputStep) under properties.output, do not require output, and leave additionalProperties open unless all six entry fields are declared.`,
    });
  });
  return findings;
}
