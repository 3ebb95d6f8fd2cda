import type { ToolSet } from "ai";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/**
 * The tools a tool.call or code.run step may reach: the LWIR's `permissions.tools` ∩ ctx.tools
 * (ctx.tools alone when the context carries no permissions: the runtime already narrowed it).
 * Sorted, so the list handed to the sandbox is the same on every run.
 */
export function allowedToolNames(ctx: Pick<WorkflowHarnessContext, "tools" | "permissions">): string[] {
  const provided = Object.keys(ctx.tools);
  const permitted = ctx.permissions?.tools;
  const names = permitted === undefined ? provided : provided.filter((name) => permitted.includes(name));
  return names.sort();
}

export function pickTools(tools: ToolSet, names: readonly string[]): ToolSet {
  const picked: ToolSet = {};
  for (const name of names) {
    const tool = tools[name];
    if (tool !== undefined) picked[name] = tool;
  }
  return picked;
}
