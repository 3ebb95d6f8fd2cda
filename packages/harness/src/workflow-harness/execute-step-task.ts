import type { SandboxLimits } from "@little-stack/sandbox";
import type { ExecuteStepTask, HarnessResult } from "../contract/harness.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { runAiGenerateStep } from "./ai-generate-step.js";
import { runCodeRunStep } from "./code-run-step.js";
import { runDecisionStep } from "./decision-step.js";
import { runToolCallStep } from "./tool-call-step.js";
import { withDurableSession } from "./with-durable-session.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";
import { ParallelStepNotExecutableError } from "./workflow-harness-errors.js";

function dispatch(options: { task: ExecuteStepTask; ctx: WorkflowHarnessContext; session: HarnessSession; sandboxLimits?: Partial<SandboxLimits> }): Promise<unknown> {
  const { task, ctx, session } = options;
  const step = task.step;
  switch (step.uses) {
    case "ai.generate":
      return runAiGenerateStep({ step, stepInput: task.stepInput, ctx, session });
    case "tool.call":
      return runToolCallStep({ step, stepInput: task.stepInput, ctx, session });
    case "decision":
      return Promise.resolve(runDecisionStep({ step, ctx }));
    case "code.run":
      return runCodeRunStep({
        step,
        stepInput: task.stepInput,
        stepPath: task.stepContext.stepPath,
        ctx,
        session,
        ...(options.sandboxLimits === undefined ? {} : { limits: options.sandboxLimits }),
      });
    case "parallel":
      throw new ParallelStepNotExecutableError({ stepId: step.id });
  }
}

/**
 * execute_step: one durable session per step attempt — `harness.session.started`,
 * `harness.execute_step.started`, the step's own model/tool events, `harness.execute_step.succeeded`
 * with the output, `harness.session.completed` (without the output, which `StepCompleted` and the
 * succeeded event already carry). A recorded `execute_step.succeeded` (or tool call) returns the
 * recorded output without running again, in a completed session too.
 *
 * A tool.call step has no `execute_step.*` pair: its one recorded tool call (`tool_call.started` /
 * `.succeeded`, caller "code", call index 0) is its execution record and is replayed the same way,
 * so the pair would only store the same output a third time in every step of a long chain.
 */
export async function runExecuteStepTask(options: {
  readonly task: ExecuteStepTask;
  readonly ctx: WorkflowHarnessContext;
  readonly sandboxLimits?: Partial<SandboxLimits>;
}): Promise<HarnessResult> {
  const { task, ctx } = options;
  const step = task.step;
  if (step.uses === "parallel") throw new ParallelStepNotExecutableError({ stepId: step.id });
  return withDurableSession({
    task,
    ctx,
    fromRecorded: (output) => ({ kind: "execute_step", output, artifactRefs: [] }),
    // The step's outcome is its tool call's `succeeded` or its `execute_step.succeeded`.
    outputInEvents: true,
    body: async (session) => {
      if (step.uses === "tool.call") {
        const output = (await runToolCallStep({ step, stepInput: task.stepInput, ctx, session })) ?? null;
        return { result: { kind: "execute_step", output, artifactRefs: [] }, completion: output };
      }
      const output = await session.executeStep({
        stepId: step.id,
        uses: step.uses,
        stepPath: task.stepContext.stepPath,
        visitIndex: task.stepContext.visitIndex,
        run: () => dispatch({ task, ctx, session, ...(options.sandboxLimits === undefined ? {} : { sandboxLimits: options.sandboxLimits }) }),
      });
      return { result: { kind: "execute_step", output, artifactRefs: [] }, completion: output };
    },
  });
}
