import { canonicalJson } from "@little-stack/canonical";
import type { ToolSet } from "ai";
import type { HarnessResult, OrchestrateTask } from "../contract/harness.js";
import { promptToolDescriptions } from "./prompt-tool-descriptions.js";
import { orchestratorAddendum } from "./role-addenda.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { sessionBashTool } from "./session-bash-tool.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { withDurableSession } from "./with-durable-session.js";

function orchestratorBrief(task: OrchestrateTask): string {
  return [
    `Available workflows: ${canonicalJson(task.available)}`,
    `Input: ${canonicalJson(task.input ?? null)}`,
    "Reach the goal with your tools, then answer with the final result.",
  ].join("\n\n");
}

/**
 * orchestrate: the same agent loop with the tools ctx provides (the orchestrator package injects
 * plan_workflow / run_workflow / start_workflow) plus bash. It ends when the model answers without
 * tool calls; the output is that final text.
 */
export async function runOrchestrateTask(options: { readonly task: OrchestrateTask; readonly ctx: WorkflowHarnessContext; readonly maxSteps: number }): Promise<HarnessResult> {
  const { task, ctx } = options;
  return withDurableSession({
    task,
    ctx,
    fromRecorded: (output) => ({ kind: "orchestrate", output }),
    body: async (session) => {
      const bash = sessionBashTool(ctx);
      const tools: ToolSet = { ...ctx.tools, ...(bash === undefined ? {} : { bash }) };
      const result = await runAgentLoop({
        session,
        ctx,
        roleAddendum: orchestratorAddendum,
        promptTools: await promptToolDescriptions(ctx.tools),
        tools,
        messages: [{ role: "user", content: orchestratorBrief(task) }],
        maxSteps: options.maxSteps,
      });
      return { result: { kind: "orchestrate" as const, output: result.text }, completion: result.text };
    },
  });
}
