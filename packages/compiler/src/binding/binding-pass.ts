import { formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import { schemasEquivalent } from "@little-stack/lwir";
import type { BindingFinding, BindingFindingCode, BindingTarget } from "./binding-target.js";
import { terminalOutputFindings } from "./terminal-output-binding.js";
import { fanInFindings } from "./fan-in-binding.js";
import { toolArgsFindings } from "./tool-args-binding.js";
import { optionalReadFindings } from "./optional-read-binding.js";
import { toolOutputFindings } from "./tool-output-binding.js";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function finding(code: BindingFindingCode, segments: readonly JsonPathSegment[], message: string): BindingFinding {
  return { severity: "error", code, path: formatJsonPath(segments), message };
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function checkSteps(steps: unknown, at: readonly JsonPathSegment[], target: BindingTarget, findings: BindingFinding[]): void {
  const models = new Set(target.modelSlotIds);
  const tools = new Set(target.toolNames);
  listOf(steps).forEach((step, index) => {
    if (!isRecord(step)) return;
    const path = [...at, index];
    const withBlock = isRecord(step.with) ? step.with : {};
    if (step.uses === "ai.generate" && typeof withBlock.model === "string" && !models.has(withBlock.model)) {
      findings.push(finding("binding.model_disallowed", [...path, "with", "model"], `Step "${String(step.id)}" uses model slot "${withBlock.model}", which the workflow definition does not offer (slots: ${[...models].join(", ") || "none"}).`));
    }
    if (step.uses === "tool.call" && typeof withBlock.tool === "string" && !tools.has(withBlock.tool)) {
      findings.push(finding("binding.tool_disallowed", [...path, "with", "tool"], `Step "${String(step.id)}" calls tool "${withBlock.tool}", which is not among the workflow's tools (${[...tools].join(", ") || "none"}).`));
    }
    const fixer = isRecord(step.onFailure) && isRecord(step.onFailure.fixer) ? step.onFailure.fixer : undefined;
    if (fixer !== undefined && typeof fixer.model === "string" && !models.has(fixer.model)) {
      findings.push(finding("binding.model_disallowed", [...path, "onFailure", "fixer", "model"], `The fixer of step "${String(step.id)}" uses model slot "${fixer.model}", which the workflow definition does not offer.`));
    }
    if (step.uses === "parallel") checkSteps(step.steps, [...path, "steps"], target, findings);
  });
}

/**
 * The binding pass (seed 001 stage 7, lwir.md §8 `binding.*`): run after `validateLwir` passes,
 * it ties the LWIR to the definition it was planned for — identity, schemas (equal up to
 * normalization: `$schema`, annotations, `additionalProperties: false`), models and tools, the
 * terminal step's output against the workflow's output schema, tool.call arguments against
 * each tool's input schema and tool.call output modes against each tool's output schema, and
 * parallel fan-in entries against the parallel step's output schema. Never throws; an empty list
 * means bound.
 */
export function bindingFindings(lwir: unknown, target: BindingTarget): BindingFinding[] {
  const findings: BindingFinding[] = [];
  if (!isRecord(lwir)) return [finding("binding.workflow_name_mismatch", [], "The LWIR must be an object.")];
  const metadata = isRecord(lwir.metadata) ? lwir.metadata : {};
  if (metadata.name !== target.workflowId) {
    findings.push(finding("binding.workflow_name_mismatch", ["metadata", "name"], `metadata.name must equal the workflow id "${target.workflowId}", got ${JSON.stringify(metadata.name)}.`));
  }
  const inputSchema = isRecord(lwir.input) ? lwir.input.schema : undefined;
  if (inputSchema === undefined || !schemasEquivalent(inputSchema, target.inputSchema)) {
    findings.push(finding("binding.input_schema_mismatch", ["input", "schema"], `input.schema must be the workflow's input schema ${JSON.stringify(target.inputSchema)} (leave input out and it is filled in).`));
  }
  const outputSchema = isRecord(lwir.output) ? lwir.output.schema : undefined;
  if (outputSchema === undefined || !schemasEquivalent(outputSchema, target.outputSchema)) {
    findings.push(finding("binding.output_schema_mismatch", ["output", "schema"], `output.schema must be the workflow's output schema ${JSON.stringify(target.outputSchema)} (leave output out and it is filled in).`));
  }
  const permissions = isRecord(lwir.permissions) ? lwir.permissions : {};
  const models = new Set(target.modelSlotIds);
  const tools = new Set(target.toolNames);
  listOf(permissions.models).forEach((name, index) => {
    if (typeof name === "string" && !models.has(name)) {
      findings.push(finding("binding.model_disallowed", ["permissions", "models", index], `permissions.models lists "${name}", which is not a model slot of the workflow (slots: ${[...models].join(", ") || "none"}).`));
    }
  });
  listOf(permissions.tools).forEach((name, index) => {
    if (typeof name === "string" && !tools.has(name)) {
      findings.push(finding("binding.tool_disallowed", ["permissions", "tools", index], `permissions.tools lists "${name}", which is not among the workflow's tools (${[...tools].join(", ") || "none"}).`));
    }
  });
  listOf(permissions.secrets).forEach((name, index) => {
    findings.push(finding("binding.secret_disallowed", ["permissions", "secrets", index], `permissions.secrets lists ${JSON.stringify(name)}, but the workflow definition grants no secrets.`));
  });
  listOf(permissions.network).forEach((name, index) => {
    findings.push(finding("binding.network_disallowed", ["permissions", "network", index], `permissions.network lists ${JSON.stringify(name)}, but the workflow definition grants no network access.`));
  });
  checkSteps(lwir.steps, ["steps"], target, findings);
  // The runtime checks the run's output against the document's output.schema (which must equal the
  // definition's up to normalization, above): that is the schema the run-output steps must fit.
  findings.push(...terminalOutputFindings(lwir, outputSchema ?? target.outputSchema), ...toolArgsFindings(lwir, target), ...toolOutputFindings(lwir, target), ...fanInFindings(lwir), ...optionalReadFindings(lwir));
  return findings;
}
