import type { WorkflowDefinition } from "@little-stack/authoring";
import { createToolRegistry, DuplicateToolError, type ToolRegistry } from "@little-stack/harness";
import type { Tool, ToolSet } from "ai";
import { WorkflowMissingToolError } from "../errors/compile-errors.js";

function isToolRegistry(value: unknown): value is ToolRegistry {
  return typeof value === "object" && value !== null && typeof (value as ToolRegistry).describe === "function" && Array.isArray((value as ToolRegistry).names);
}

/**
 * The registry of exactly the workflow's `globalTools`: the run's registry plus the tools the
 * definition gave inline (the same tool object in both is fine; two different ones under one
 * name are not). A listed name found in neither is `WorkflowMissingToolError`.
 */
export function resolveWorkflowTools(definition: WorkflowDefinition, tools: ToolRegistry | ToolSet | undefined): ToolRegistry {
  const given = tools === undefined ? createToolRegistry({}) : isToolRegistry(tools) ? tools : createToolRegistry(tools);
  const available = new Map<string, Tool>();
  for (const name of given.names) available.set(name, given.get(name));
  for (const name of definition.inlineTools?.names ?? []) {
    const inline = definition.inlineTools!.get(name);
    const existing = available.get(name);
    if (existing !== undefined && existing !== inline) {
      throw new DuplicateToolError({ name, existing: name });
    }
    available.set(name, inline);
  }
  const missing = definition.globalTools.filter((name) => !available.has(name));
  if (missing.length > 0) throw new WorkflowMissingToolError({ workflowId: definition.id, missing, available: [...available.keys()].sort() });
  const picked: ToolSet = {};
  for (const name of definition.globalTools) picked[name] = available.get(name)!;
  return createToolRegistry(picked);
}
