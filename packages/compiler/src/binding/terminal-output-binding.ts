import { formatJsonPath } from "@little-stack/canonical";
import { schemaImplicationGaps, stepOutputSchema, type LwirFinding } from "@little-stack/lwir";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The steps whose output can become the run's output (lwir.md §4): the terminal step, or — in a
 * list without one (a loop that ends at a decision) — every non-decision step that only decisions
 * come after.
 */
function outputCandidates(steps: readonly unknown[]): { step: Json; index: number }[] {
  const entries = steps.map((step, index) => ({ step, index })).filter((entry): entry is { step: Json; index: number } => isRecord(entry.step) && typeof entry.step.id === "string");
  const byId = new Map(entries.map((entry) => [entry.step.id as string, entry]));
  const followers = new Map<string, Json[]>();
  const add = (id: unknown, follower: Json) => {
    if (typeof id === "string" && byId.has(id) && id !== follower.id) followers.set(id, [...(followers.get(id) ?? []), follower]);
  };
  for (const { step } of entries) {
    if (Array.isArray(step.needs)) for (const need of step.needs) add(need, step);
    const withBlock = isRecord(step.with) ? step.with : {};
    if (step.uses === "decision") {
      const cases = Array.isArray(withBlock.cases) ? withBlock.cases : [];
      for (const entry of cases) if (isRecord(entry)) add(entry.to, step);
      add(withBlock.default, step);
    }
  }
  const nonDecisions = entries.filter((entry) => entry.step.uses !== "decision");
  const terminals = nonDecisions.filter((entry) => (followers.get(entry.step.id as string) ?? []).length === 0);
  if (terminals.length > 0) return terminals;
  return nonDecisions.filter((entry) => (followers.get(entry.step.id as string) ?? []).every((follower) => follower.uses === "decision"));
}

/**
 * `binding.terminal_output_mismatch`: a step whose output becomes the run's output must produce
 * only values the workflow's output schema accepts (the runtime checks the run output against it
 * before RunCompleted; this makes that check unable to fail for a reason the plan alone decides).
 */
export function terminalOutputFindings(lwir: Json, outputSchema: unknown): LwirFinding[] {
  const steps = Array.isArray(lwir.steps) ? lwir.steps : [];
  const findings: LwirFinding[] = [];
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
