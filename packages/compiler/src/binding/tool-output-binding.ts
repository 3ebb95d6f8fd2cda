import { formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import { schemaImplicationGaps, stepOutputSchema } from "@little-stack/lwir";
import type { BindingFinding, BindingTarget } from "./binding-target.js";
import { describeImplicationGaps } from "./implication-gaps-text.js";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `binding.tool_output_mismatch`: a `tool.call` step's output mode must accept every result the
 * tool's declared output schema allows — the runtime checks the result against the step's mode and
 * fails the run (`step_schema_error`, never retried) when it does not fit, so a mode narrower than
 * the tool (a closed object without a field the tool returns, a required field the tool may leave
 * out, text for an object) would fail for a reason the plan alone decides. Tools without an output
 * schema are not checked (nothing says what they return).
 */
export function toolOutputFindings(lwir: Json, target: BindingTarget): BindingFinding[] {
  const outputSchemas = new Map((target.tools ?? []).filter((tool) => tool.outputSchema !== undefined).map((tool) => [tool.name, tool.outputSchema]));
  const findings: BindingFinding[] = [];
  const walk = (steps: unknown, at: readonly JsonPathSegment[]) => {
    (Array.isArray(steps) ? steps : []).forEach((step, index) => {
      if (!isRecord(step)) return;
      const withBlock = isRecord(step.with) ? step.with : {};
      if (step.uses === "parallel") walk(step.steps, [...at, index, "steps"]);
      if (step.uses !== "tool.call" || typeof withBlock.tool !== "string" || !outputSchemas.has(withBlock.tool)) return;
      const toolOutput = outputSchemas.get(withBlock.tool);
      const gaps = schemaImplicationGaps(toolOutput, stepOutputSchema(step) ?? true);
      if (gaps.length === 0) return;
      findings.push({
        severity: "error",
        code: "binding.tool_output_mismatch",
        path: formatJsonPath([...at, index, "output"]),
        message: `Step "${String(step.id)}" calls tool "${withBlock.tool}", whose results its output mode does not all accept (${describeImplicationGaps(gaps, { narrow: "the tool's output schema", wide: "the step's output" })}). Copy the tool's output schema into the step: output { mode: "object", schema: ${JSON.stringify(toolOutput)} }, or use { mode: "json", schema: true } to pass the result on whole.`,
      });
    });
  };
  walk(lwir.steps, ["steps"]);
  return findings;
}
