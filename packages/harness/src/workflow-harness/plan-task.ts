import type { SandboxLimits } from "@little-stack/sandbox";
import { jsonSchema, tool, type ModelMessage, type ToolSet } from "ai";
import type { HarnessResult, PlanTask } from "../contract/harness.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { PlanNotSubmittedError, PlanRevisionsExhaustedError, type PlanRevision } from "./agent-task-errors.js";
import { completedDocument, evaluateSubmission, type PlanToolFinding } from "./plan-submission.js";
import { plannerBrief } from "./planner-brief.js";
import { promptToolDescriptions } from "./prompt-tool-descriptions.js";
import { plannerAddendum } from "./role-addenda.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { sessionBashTool } from "./session-bash-tool.js";
import { createTestCodeTool } from "./test-code-tool.js";
import { countToolCalls, toolCallOutcomes } from "./tool-call-history.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { withDurableSession } from "./with-durable-session.js";
import { WorkflowHarnessOptionError } from "./workflow-harness-errors.js";

/** What `submit_workflow` returns to the model (recorded as the tool result). */
export type SubmitWorkflowResult = { readonly accepted: boolean; readonly findings: readonly PlanToolFinding[] };

/** What `check_workflow` returns to the model (recorded as the tool result). */
export type CheckWorkflowResult = { readonly valid: boolean; readonly findings: readonly PlanToolFinding[] };

const lwirInput = (description: string) =>
  jsonSchema<{ lwir: Record<string, unknown> }>({
    type: "object",
    properties: { lwir: { type: "object", description } },
    required: ["lwir"],
    additionalProperties: false,
  });

/** Text-only turns answered with a reminder before the session gives up (each one is a recorded turn). */
const maxReminders = 3;

function reminder(options: { readonly submissionsLeft: number }): string {
  return [
    "Your turn ended without a tool call, so nothing was submitted. The workflow is designed only through your tools:",
    "check_workflow({ lwir }) validates a draft for free, test_code({ files, entrypoint, input }) runs code for free,",
    `and submit_workflow({ lwir }) submits the final document (${options.submissionsLeft} submission(s) left). Call one of them now.`,
  ].join(" ");
}

/**
 * plan: an agent loop (role planner) with bash over memory, scratch and skills (the built-in
 * `lwir` skill among them) and three tools — `check_workflow` (validate a draft, free),
 * `test_code` (run code in the step sandbox, free) and `submit_workflow` (spends a revision; ends
 * the session when accepted). Submissions are completed (ctx.planning.completeWorkflow) and
 * validated (`validateLwir`, then ctx.planning.validateWorkflow — the compiler's binding pass);
 * findings go back to the model. A turn that ends in text gets a reminder (at most 3) instead of
 * ending the session. At most `maxWorkflowRevisions` submissions; ctx.tools are described, not callable.
 */
export async function runPlanTask(options: {
  readonly task: PlanTask;
  readonly ctx: WorkflowHarnessContext;
  readonly maxSteps: number;
  readonly defaultMaxWorkflowRevisions: number;
  readonly sandboxLimits?: Partial<SandboxLimits>;
}): Promise<HarnessResult> {
  const { task, ctx } = options;
  const maxWorkflowRevisions = ctx.planning?.maxWorkflowRevisions ?? options.defaultMaxWorkflowRevisions;

  if (!Number.isSafeInteger(maxWorkflowRevisions) || maxWorkflowRevisions < 1) {
    throw new WorkflowHarnessOptionError({ option: "maxWorkflowRevisions", value: maxWorkflowRevisions, expected: "an integer >= 1" });
  }
  const accepted = (entry: { output: unknown }) => (entry.output as SubmitWorkflowResult).accepted;

  const body = async (session: HarnessSession) => {
    const submittedInTurn = new Map<number, number>();
    const submitWorkflow = tool({
      description: "Submit the complete LWIR document (spends one revision). Returns { accepted, findings }; fix every finding and submit again when not accepted.",
      inputSchema: lwirInput("The LWIR document. apiVersion, kind, metadata, input/output schemas, permissions and file sha256 may be left out: they are filled in."),
      execute: async ({ lwir }, { messages }): Promise<SubmitWorkflowResult> => {
        const inTurn = submittedInTurn.get(messages.length) ?? 0;
        submittedInTurn.set(messages.length, inTurn + 1);
        if (countToolCalls(messages as ModelMessage[], "submit_workflow") + inTurn >= maxWorkflowRevisions) {
          return { accepted: false, findings: [{ code: "plan.revisions_exhausted", path: "$", message: `No revisions left (maxWorkflowRevisions ${maxWorkflowRevisions}).` }] };
        }
        const { findings } = await evaluateSubmission(lwir, ctx);
        return { accepted: findings.length === 0, findings };
      },
    });
    const checkWorkflow = tool({
      description: "Validate an LWIR draft exactly as submit_workflow would, without submitting it (free). Returns { valid, findings }.",
      inputSchema: lwirInput("The LWIR draft (same shape as for submit_workflow)."),
      execute: async ({ lwir }): Promise<CheckWorkflowResult> => {
        const { findings } = await evaluateSubmission(lwir, ctx);
        return { valid: findings.length === 0, findings };
      },
    });
    const testCode = createTestCodeTool({
      runId: session.runId,
      toolNames: [...new Set([...Object.keys(ctx.tools), ...task.workflowSnapshot.globalTools])],
      ...(options.sandboxLimits === undefined ? {} : { limits: options.sandboxLimits }),
      abortSignal: ctx.abortSignal,
    });
    const bash = sessionBashTool(ctx);
    const tools: ToolSet = { ...(bash === undefined ? {} : { bash }), check_workflow: checkWorkflow, test_code: testCode, submit_workflow: submitWorkflow };
    const promptTools = await promptToolDescriptions(ctx.tools);
    let messages: ModelMessage[] = [{ role: "user", content: plannerBrief(task) }];
    const steps: Awaited<ReturnType<typeof runAgentLoop>>["steps"][number][] = [];
    for (let reminders = 0; ; reminders += 1) {
      const result = await runAgentLoop({
        session,
        ctx,
        roleAddendum: plannerAddendum,
        promptTools,
        tools,
        messages,
        maxSteps: options.maxSteps - steps.length,
        stopWhen: ({ steps: current }) => {
          const submissions = [...toolCallOutcomes(steps, "submit_workflow"), ...toolCallOutcomes(current, "submit_workflow")];
          return submissions.length >= maxWorkflowRevisions || submissions.some(accepted);
        },
      });
      steps.push(...result.steps);
      const submissions = toolCallOutcomes(steps, "submit_workflow");
      if (submissions.length >= maxWorkflowRevisions || submissions.some(accepted)) break;
      const endedInText = (result.steps.at(-1)?.toolCalls.length ?? 0) === 0;
      if (!endedInText || reminders >= maxReminders || steps.length >= options.maxSteps) break;
      messages = [...messages, ...result.response.messages, { role: "user", content: reminder({ submissionsLeft: maxWorkflowRevisions - submissions.length }) }];
    }
    const submissions = toolCallOutcomes(steps, "submit_workflow");
    const revisions: PlanRevision[] = [];
    for (const [index, entry] of submissions.entries()) {
      const outcome = entry.output as SubmitWorkflowResult;
      if (outcome.accepted) {
        // The accepted document is the completed one (what was validated); completion is pure.
        const lwir = completedDocument((entry.input as { lwir: unknown }).lwir, ctx);
        return { result: { kind: "plan" as const, lwir }, completion: lwir };
      }
      revisions.push({ revision: index + 1, findings: outcome.findings });
    }
    if (submissions.length >= maxWorkflowRevisions) throw new PlanRevisionsExhaustedError({ maxWorkflowRevisions, revisions });
    throw new PlanNotSubmittedError({ modelSteps: steps.length, revisions });
  };

  return withDurableSession({ task, ctx, fromRecorded: (lwir) => ({ kind: "plan", lwir }), body });
}
