import type { LwirToolCallStep } from "@little-stack/lwir";
import type { HarnessSession } from "../agent/harness-session.js";
import { executeRegisteredTool } from "../tools/execute-registered-tool.js";
import { createToolRegistry } from "../tools/tool-registry.js";
import { allowedToolNames, pickTools } from "./allowed-tools.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { ToolNotPermittedError } from "./workflow-harness-errors.js";

/**
 * tool.call: the single named tool, called with the resolved step input through the registry's
 * recorded execution (caller "code", call index 0; a recorded result is returned on resume).
 */
export async function runToolCallStep(options: {
  readonly step: LwirToolCallStep;
  readonly stepInput: unknown;
  readonly ctx: WorkflowHarnessContext;
  readonly session: HarnessSession;
}): Promise<unknown> {
  const { step, ctx, session } = options;
  const toolName = step.with.tool;
  const allowed = allowedToolNames(ctx);
  if (!allowed.includes(toolName)) throw new ToolNotPermittedError({ stepId: step.id, toolName, allowedTools: allowed });
  const registry = createToolRegistry(pickTools(ctx.tools, [toolName]));
  // The context's signal is handed on unread: the tool reads it if it wants it.
  return executeRegisteredTool({ registry, toolName, args: options.stepInput ?? {}, session, callIndex: 0, signalFrom: ctx });
}
