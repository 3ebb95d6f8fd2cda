import type { ModelMessage, StopCondition, ToolSet } from "ai";
import { stepCountIs } from "ai";
import { durableGenerateText } from "../agent/durable-generate.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { assembleSystemPrompt, type PromptToolDescription } from "./assemble-system-prompt.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/**
 * The agent loop shared by plan, orchestrate and fix_step: a system prompt assembled in seed
 * 003's order, the session's recorded model and tools, and a loop that stops when the model
 * answers without tool calls, a role condition holds, or `maxSteps` model calls were made.
 */
export async function runAgentLoop(options: {
  readonly session: HarnessSession;
  readonly ctx: WorkflowHarnessContext;
  readonly roleAddendum: string;
  /** Section 5 of the system prompt (what ctx.tools offers; may differ from what is callable). */
  readonly promptTools: readonly PromptToolDescription[];
  /** What the model may call (bash and the role's own tools). */
  readonly tools: ToolSet;
  readonly messages: readonly ModelMessage[];
  readonly maxSteps: number;
  readonly stopWhen?: StopCondition<ToolSet>;
}) {
  const { ctx } = options;
  const system = assembleSystemPrompt({
    ...(ctx.system === undefined ? {} : { system: ctx.system }),
    roleAddendum: options.roleAddendum,
    skills: ctx.skills,
    memoryMounts: ctx.memoryMounts,
    scratchMounts: ctx.scratchMounts,
    tools: options.promptTools,
  });
  return durableGenerateText(options.session, {
    model: ctx.model.model,
    system,
    messages: [...options.messages],
    tools: options.tools,
    stopWhen: options.stopWhen === undefined ? stepCountIs(options.maxSteps) : [stepCountIs(options.maxSteps), options.stopWhen],
    abortSignal: ctx.abortSignal,
  });
}
