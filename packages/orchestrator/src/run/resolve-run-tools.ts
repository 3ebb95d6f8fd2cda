import type { WorkflowDefinition } from "@little-stack/authoring";
import { createToolRegistry, type ToolRegistry } from "@little-stack/harness";
import type { Tool, ToolSet } from "ai";
import { InvalidOrchestrationOptionsError } from "../errors/orchestrator-errors.js";

export function isToolRegistry(value: unknown): value is ToolRegistry {
  return typeof value === "object" && value !== null && typeof (value as ToolRegistry).describe === "function" && Array.isArray((value as ToolRegistry).names);
}

/** A registry from a registry or a record of AI SDK tools (undefined → empty). */
export function toToolRegistry(tools: ToolRegistry | ToolSet | undefined): ToolRegistry {
  if (tools === undefined) return createToolRegistry({});
  return isToolRegistry(tools) ? tools : createToolRegistry(tools);
}

/**
 * The registry of exactly the workflow's tools: the run's registry plus the tools the definition
 * gave inline. A listed name found in neither is refused before anything is planned.
 */
export function resolveRunTools(options: { readonly call: string; readonly definition: WorkflowDefinition; readonly tools: ToolRegistry | ToolSet | undefined }): ToolRegistry {
  const { definition } = options;
  const given = toToolRegistry(options.tools);
  const available = new Map<string, Tool>();
  for (const name of given.names) available.set(name, given.get(name));
  for (const name of definition.inlineTools?.names ?? []) if (!available.has(name)) available.set(name, definition.inlineTools!.get(name));
  const missing = definition.globalTools.filter((name) => !available.has(name));
  if (missing.length > 0) {
    throw new InvalidOrchestrationOptionsError({
      call: options.call,
      field: "tools",
      problem: `lacks ${missing.map((name) => `"${name}"`).join(", ")}, which workflow "${definition.id}" lists (registry has ${[...available.keys()].sort().join(", ") || "no tools"})`,
      fix: "Pass a registry with these tools (createToolRegistry({ … })) or give them inline in defineWorkflow({ tools: { … } }).",
    });
  }
  const picked: ToolSet = {};
  for (const name of definition.globalTools) picked[name] = available.get(name)!;
  return createToolRegistry(picked);
}
