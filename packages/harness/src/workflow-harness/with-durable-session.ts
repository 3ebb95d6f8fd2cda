import type { HarnessTask } from "../contract/harness.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { openTaskSession } from "../agent/open-task-session.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/**
 * Opens (or resumes) the durable session of a task and runs `body` in it. A session whose
 * completion is already recorded returns `fromRecorded(output)` without running anything; else
 * the body's `completion` is recorded in `harness.session.completed` (or the error in
 * `harness.session.failed`, rethrown).
 *
 * With `outputInEvents`, the body's outcome is already in an event of its own, which the body
 * replays when run again (a step session's tool call `succeeded`, or its `execute_step.succeeded`):
 * the completion is recorded without the output — it would store the step's output once more, a
 * third or fourth copy beside `StepCompleted` — and a completion recorded without one runs the
 * body, which returns the recorded outcome without executing anything. A completion recorded with
 * an output (a log written before) is still returned as it is.
 */
export async function withDurableSession<TResult>(options: {
  readonly task: HarnessTask;
  readonly ctx: WorkflowHarnessContext;
  readonly body: (session: HarnessSession) => Promise<{ readonly result: TResult; readonly completion: unknown }>;
  readonly fromRecorded: (output: unknown) => TResult;
  readonly outputInEvents?: true;
}): Promise<TResult> {
  const { task, ctx } = options;
  const session = await openTaskSession(task, ctx);
  const recorded = session.recordedCompletion;
  if (recorded !== undefined && (options.outputInEvents !== true || recorded.output !== undefined)) return options.fromRecorded(recorded.output ?? null);
  let outcome: { readonly result: TResult; readonly completion: unknown };
  try {
    outcome = await options.body(session);
  } catch (error) {
    // An interruption is not a failure: leave the session open so a resume continues it.
    if (ctx.abortSignal?.aborted !== true) await session.fail(error);
    throw error;
  }
  await session.complete(options.outputInEvents === true ? {} : { output: outcome.completion });
  return outcome.result;
}
