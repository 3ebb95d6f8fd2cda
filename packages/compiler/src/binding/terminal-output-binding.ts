import { formatJsonPath } from "@little-stack/canonical";
import { schemaImplicationGaps, stepOutputSchema } from "@little-stack/lwir";
import { outputCandidates } from "./output-candidates.js";
import type { BindingFinding } from "./binding-target.js";

type Json = Record<string, unknown>;

/**
 * `binding.terminal_output_mismatch`: a step whose output can become the run's output (the
 * terminal step, or one the run can end on: `outputCandidates`) must produce
 * only values the workflow's output schema accepts (the runtime checks the run output against it
 * before RunCompleted; this makes that check unable to fail for a reason the plan alone decides).
 */
export function terminalOutputFindings(lwir: Json, outputSchema: unknown): BindingFinding[] {
  const steps = Array.isArray(lwir.steps) ? lwir.steps : [];
  const findings: BindingFinding[] = [];
  for (const { step, index } of outputCandidates(steps)) {
    const gaps = schemaImplicationGaps(stepOutputSchema(step), outputSchema);
    if (gaps.length === 0) continue;
    const shown = gaps.slice(0, 3).map((gap) => `at ${gap.path}: ${gap.problem}`).join("; ");
    findings.push({
      severity: "error",
      code: "binding.terminal_output_mismatch",
      path: formatJsonPath(["steps", index, "output"]),
      message: `Step "${String(step.id)}" produces the run's output, but its output can fail the workflow's output schema (${shown}). Give it output { mode: "object", schema: <the workflow output schema> } (or a mode whose values all fit it).`,
    });
  }
  return findings;
}
