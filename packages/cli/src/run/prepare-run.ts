import type { ResolvedModel, ToolRegistry } from "@little-stack/harness";
import { createSchemaValidator, type LwirDocument, validateLwir } from "@little-stack/lwir";
import { createToolRegistry } from "@little-stack/harness";
import type { Readable } from "node:stream";
import { CliInputError, CliInvalidWorkflowError, CliUsageError } from "../cli-errors.js";
import { readJsonInput } from "../read-json-input.js";
import { requireStorableJson } from "../storable-json.js";
import { loadToolsModule } from "./load-tools-module.js";
import { parseModelSlots, resolveModelSlots } from "./model-slots-file.js";
import { workflowNeeds } from "./workflow-needs.js";

export type PreparedRun = {
  readonly lwir: LwirDocument;
  readonly input: unknown;
  readonly models: Record<string, ResolvedModel>;
  readonly tools: ToolRegistry;
};

/**
 * Everything `little run` checks before it touches the world, so that a mistake on the command
 * line never leaves a half-started run behind: the LWIR is valid, the input matches its
 * input.schema, every model slot the steps use has a --models entry, every tool is provided.
 */
export async function prepareRun(options: {
  workflowPath: string;
  inputPath: string;
  modelsPath: string | undefined;
  toolsPath: string | undefined;
  cwd: string;
  stdin: Readable;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<PreparedRun> {
  const { cwd, stdin } = options;
  if (options.workflowPath === "-" && options.inputPath === "-") throw new CliUsageError("the workflow and --input cannot both be standard input — write one of them to a file");
  const workflow = await readJsonInput({ path: options.workflowPath, cwd, stdin });
  requireStorableJson({ value: workflow.value, displayName: workflow.displayName, what: "the workflow" });
  const validation = validateLwir(workflow.value);
  if (!validation.valid) {
    const first = validation.findings[0]!;
    const count = validation.findings.length;
    throw new CliInvalidWorkflowError(
      `${workflow.displayName} is not valid LWIR (${count} finding${count === 1 ? "" : "s"}; first: ${first.path} ${first.code} ${oneLine(first.message)}) — run "little validate ${options.workflowPath}" to see them all`,
    );
  }
  const lwir = workflow.value as LwirDocument;
  const input = await readJsonInput({ path: options.inputPath, cwd, stdin });
  requireStorableJson({ value: input.value, displayName: input.displayName, what: "the input" });
  const inputCheck = createSchemaValidator(lwir.input.schema)(input.value);
  if (!inputCheck.valid) {
    const problems = inputCheck.errors.slice(0, 3).map((error) => `${error.path} ${error.message}`).join("; ");
    throw new CliInputError(`${input.displayName} does not match the workflow's input.schema: ${problems} — fix the input file`);
  }
  const needs = workflowNeeds(lwir);
  const models = await resolveModels({ ...options, slotsNeeded: needs.modelSlots });
  const toolsNeeded = [...new Set([...needs.tools, ...(lwir.permissions?.tools ?? [])])].sort();
  const tools = options.toolsPath === undefined ? createToolRegistry({}) : await loadToolsModule({ path: options.toolsPath, cwd });
  const missingTools = toolsNeeded.filter((name) => !tools.has(name));
  if (missingTools.length > 0) {
    const where = options.toolsPath === undefined ? "no --tools module was given" : `${options.toolsPath} does not export ${missingTools.length === 1 ? "it" : "them"}`;
    throw new CliUsageError(`the workflow uses tool${missingTools.length === 1 ? "" : "s"} ${missingTools.map((name) => `"${name}"`).join(", ")} but ${where} — pass --tools with a module exporting them`);
  }
  return { lwir, input: input.value, models, tools };
}

async function resolveModels(options: {
  modelsPath: string | undefined;
  slotsNeeded: readonly string[];
  cwd: string;
  stdin: Readable;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<Record<string, ResolvedModel>> {
  const { slotsNeeded } = options;
  if (options.modelsPath === undefined) {
    if (slotsNeeded.length === 0) return {};
    throw new CliUsageError(`the workflow uses model slot${slotsNeeded.length === 1 ? "" : "s"} ${slotsNeeded.map((slot) => `"${slot}"`).join(", ")} but no --models file was given — pass --models models.json mapping each slot to a provider`);
  }
  const file = await readJsonInput({ path: options.modelsPath, cwd: options.cwd, stdin: options.stdin });
  const slots = parseModelSlots({ value: file.value, displayName: file.displayName });
  const missing = slotsNeeded.filter((slot) => slots[slot] === undefined);
  if (missing.length > 0) {
    throw new CliInputError(`${file.displayName} has no entry for model slot${missing.length === 1 ? "" : "s"} ${missing.map((slot) => `"${slot}"`).join(", ")} — add { "${missing[0]}": { "provider": …, "model": … } }`);
  }
  return resolveModelSlots({ slots, needed: slotsNeeded, env: options.env, displayName: file.displayName });
}

function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, " ");
}
