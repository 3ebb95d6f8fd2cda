import { canonicalJson } from "@little-stack/canonical";
import { validateLwir, type LwirFinding } from "@little-stack/lwir";
import { jsonSchema, tool, type ModelMessage, type ToolSet } from "ai";
import type { HarnessResult, PlanTask } from "../contract/harness.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { PlanNotSubmittedError, PlanRevisionsExhaustedError, type PlanRevision } from "./agent-task-errors.js";
import { promptToolDescriptions } from "./prompt-tool-descriptions.js";
import { plannerAddendum } from "./role-addenda.js";
import { runAgentLoop } from "./run-agent-loop.js";
import { sessionBashTool } from "./session-bash-tool.js";
import { countToolCalls, toolCallOutcomes } from "./tool-call-history.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { withDurableSession } from "./with-durable-session.js";
import { WorkflowHarnessOptionError } from "./workflow-harness-errors.js";

/** What `submit_workflow` returns to the model (recorded as the tool result). */
export type SubmitWorkflowResult = { readonly accepted: boolean; readonly findings: readonly Pick<LwirFinding, "code" | "path" | "message">[] };

const submitInput = jsonSchema<{ lwir: Record<string, unknown> }>({
  type: "object",
  properties: { lwir: { type: "object", description: "The complete LWIR document." } },
  required: ["lwir"],
  additionalProperties: false,
});

/** Some models send the document as a JSON string instead of an object: accept both. */
function submittedDocument(lwir: unknown): { readonly document: unknown } | { readonly problem: string } {
  if (typeof lwir !== "string") return { document: lwir };
  try {
    return { document: JSON.parse(lwir) as unknown };
  } catch (error) {
    return { problem: `lwir is a string that is not JSON (${(error as Error).message}); pass the document as an object.` };
  }
}

function compact(findings: readonly LwirFinding[]): SubmitWorkflowResult["findings"] {
  return findings.map((finding) => ({ code: finding.code, path: finding.path, message: finding.message }));
}

function plannerBrief(task: PlanTask): string {
  return [
    `Design the workflow "${task.workflowSnapshot.id}".`,
    `Workflow definition snapshot: ${canonicalJson(task.workflowSnapshot)}`,
    `Run input: ${canonicalJson(task.input ?? null)}`,
    ...(task.outerLoopContext === undefined ? [] : [`Outer loop context: ${canonicalJson(task.outerLoopContext)}`]),
    "Submit the LWIR with submit_workflow.",
  ].join("\n\n");
}

/**
 * plan: an agent loop (role planner) with bash over memory, scratch and skills; ctx.tools are
 * described in the system prompt but not callable. It ends when the model submits an LWIR through
 * `submit_workflow` that passes `validateLwir` and the optional extra validation (the compiler's
 * binding pass); findings go back to the model. At most `maxWorkflowRevisions` submissions.
 */
export async function runPlanTask(options: {
  readonly task: PlanTask;
  readonly ctx: WorkflowHarnessContext;
  readonly maxSteps: number;
  readonly defaultMaxWorkflowRevisions: number;
}): Promise<HarnessResult> {
  const { task, ctx } = options;
  const maxWorkflowRevisions = ctx.planning?.maxWorkflowRevisions ?? options.defaultMaxWorkflowRevisions;
  const validateExtra = ctx.planning?.validateWorkflow;

  if (!Number.isSafeInteger(maxWorkflowRevisions) || maxWorkflowRevisions < 1) {
    throw new WorkflowHarnessOptionError({ option: "maxWorkflowRevisions", value: maxWorkflowRevisions, expected: "an integer >= 1" });
  }

  const body = async (session: HarnessSession) => {
    const submittedInTurn = new Map<number, number>();
    const submitWorkflow = tool({
      description: "Submit the complete LWIR document. Returns { accepted, findings }; fix every finding and submit again when not accepted.",
      inputSchema: submitInput,
      execute: async ({ lwir }, { messages }): Promise<SubmitWorkflowResult> => {
        const inTurn = submittedInTurn.get(messages.length) ?? 0;
        submittedInTurn.set(messages.length, inTurn + 1);
        if (countToolCalls(messages as ModelMessage[], "submit_workflow") + inTurn >= maxWorkflowRevisions) {
          return { accepted: false, findings: [{ code: "plan.revisions_exhausted", path: "$", message: `No revisions left (maxWorkflowRevisions ${maxWorkflowRevisions}).` }] };
        }
        const submitted = submittedDocument(lwir);
        if ("problem" in submitted) return { accepted: false, findings: [{ code: "plan.lwir_not_json", path: "$", message: submitted.problem }] };
        const checked = validateLwir(submitted.document);
        if (!checked.valid) return { accepted: false, findings: compact(checked.findings) };
        const extra = validateExtra === undefined ? [] : await validateExtra(submitted.document);
        if (extra.length > 0) return { accepted: false, findings: compact(extra) };
        return { accepted: true, findings: [] };
      },
    });
    const bash = sessionBashTool(ctx);
    const tools: ToolSet = { ...(bash === undefined ? {} : { bash }), submit_workflow: submitWorkflow };
    const result = await runAgentLoop({
      session,
      ctx,
      roleAddendum: plannerAddendum,
      promptTools: await promptToolDescriptions(ctx.tools),
      tools,
      messages: [{ role: "user", content: plannerBrief(task) }],
      maxSteps: options.maxSteps,
      stopWhen: ({ steps }) => {
        const submissions = toolCallOutcomes(steps, "submit_workflow");
        return submissions.length >= maxWorkflowRevisions || submissions.some((entry) => (entry.output as SubmitWorkflowResult).accepted);
      },
    });
    const submissions = toolCallOutcomes(result.steps, "submit_workflow");
    const revisions: PlanRevision[] = [];
    for (const [index, entry] of submissions.entries()) {
      const outcome = entry.output as SubmitWorkflowResult;
      if (outcome.accepted) {
        const lwir = (submittedDocument((entry.input as { lwir: unknown }).lwir) as { document: unknown }).document;
        return { result: { kind: "plan" as const, lwir }, completion: lwir };
      }
      revisions.push({ revision: index + 1, findings: outcome.findings });
    }
    if (submissions.length >= maxWorkflowRevisions) throw new PlanRevisionsExhaustedError({ maxWorkflowRevisions, revisions });
    throw new PlanNotSubmittedError({ modelSteps: result.steps.length, revisions });
  };

  return withDurableSession({ task, ctx, fromRecorded: (lwir) => ({ kind: "plan", lwir }), body });
}
