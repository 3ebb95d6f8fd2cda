import { evaluateTemplateString, type ExpressionContext, type LwirParallelStep } from "@little-stack/lwir";
import { isoNow } from "@little-stack/local-world";
import type { StepErrorPayload } from "../events/runtime-event-types.js";
import { commitStepOutput, recordedOutput, type CommittedOutput } from "./commit-step-output.js";
import type { RunContext } from "./run-context.js";
import { runScope } from "./run-scope.js";
import { Semaphore } from "./semaphore.js";
import { abortFailure } from "./harness-dispatch.js";
import { backoff } from "./run-step.js";
import { attemptIdFor, branchPathFor, groupAttemptPath } from "./step-path.js";
import { StepFailure, stepErrorOf } from "./step-failure.js";

type FanInEntry =
  | { readonly itemKey: string; readonly status: "completed"; readonly output: unknown; readonly outputRef: string; readonly artifacts: readonly string[] }
  | { readonly itemKey: string; readonly status: "failed"; readonly error: StepErrorPayload; readonly artifacts: readonly string[] };

/**
 * Runs a parallel step: one branch per item (at most `maxBranches`), at most `maxConcurrency`
 * branches at once (and the world's `maxConcurrentSteps` step attempts across the run), each
 * branch its own scope with `item` bound. Fan-in in input or itemKey order; `fail_fast` stops
 * starting branches after the first failure, `all_settled` reports failed entries.
 *
 * A `fail_fast` group that fails with a retriable cause is retried as a whole up to
 * `retry.maxAttempts` (with its backoff): attempt n ≥ 2 runs every branch that has not completed
 * again under `<id>@attempt_<n>[<key>]`; a branch that completed in an earlier attempt is reused,
 * never re-run (its recorded steps answer).
 */
export async function runParallelGroup(options: {
  readonly run: RunContext;
  readonly step: LwirParallelStep;
  readonly stepPath: string;
  readonly visitIndex: number;
  readonly expressions: ExpressionContext;
}): Promise<CommittedOutput> {
  const { run, step, stepPath } = options;
  const recorded = await recordedOutput(run, stepPath);
  if (recorded !== undefined) return recorded;
  const maxAttempts = step.retry?.maxAttempts ?? 1;
  const existing = run.log.folder.step(stepPath);
  if (existing?.status === "failed" && existing.error !== undefined && (!existing.error.retriable || existing.attempts >= maxAttempts)) {
    throw new StepFailure(existing.error.causeCode ?? "step_failed", stepPath, existing.error);
  }
  for (;;) {
    if (run.cancellation.cancelled) throw abortFailure(run, stepPath);
    const state = run.log.folder.step(stepPath);
    const resuming = state?.status === "running";
    const attempt = resuming ? state!.attempts : (state?.attempts ?? 0) + 1;
    if (!resuming) {
      const attemptEvent = { type: "StepAttemptStarted" as const, payload: { stepPath, stepId: step.id, attempt, attemptId: attemptIdFor(attempt), startedAt: isoNow() } };
      await run.log.append(
        state === undefined ? [{ type: "StepScheduled", payload: { stepPath, stepId: step.id, uses: step.uses, visitIndex: options.visitIndex } }, attemptEvent] : [attemptEvent],
      );
    }
    const outcome = await runGroupAttempt({ ...options, attempt });
    if (outcome.kind === "completed") return outcome.committed;
    const { failure } = outcome;
    await run.log.append([
      { type: "ParallelGroupFailed", payload: { stepPath, error: failure.error, failedStepPath: failure.failedStepPath ?? stepPath } },
      { type: "StepFailed", payload: { stepPath, stepId: step.id, attempt, error: failure.error } },
    ]);
    if (!failure.error.retriable || attempt >= maxAttempts) throw new StepFailure(failure.causeCode, failure.failedStepPath ?? stepPath, failure.error);
    await backoff(run, step, attempt, stepPath);
  }
}

type GroupAttemptOutcome = { readonly kind: "completed"; readonly committed: CommittedOutput } | { readonly kind: "failed"; readonly failure: StepFailure };

async function runGroupAttempt(options: {
  readonly run: RunContext;
  readonly step: LwirParallelStep;
  readonly stepPath: string;
  readonly expressions: ExpressionContext;
  readonly attempt: number;
}): Promise<GroupAttemptOutcome> {
  const { run, step, stepPath, expressions, attempt } = options;
  let items: { readonly item: unknown; readonly itemKey: string }[];
  try {
    items = resolveItems(step, expressions, stepPath);
  } catch (error) {
    // Not retriable: the same items resolve the same way on every attempt.
    if (run.log.folder.group(stepPath) === undefined) {
      await run.log.append([{ type: "StepFailed", payload: { stepPath, stepId: step.id, attempt, error: stepErrorOf(error, "runtime_config_error") } }]);
    }
    throw new StepFailure("runtime_config_error", stepPath, stepErrorOf(error, "runtime_config_error"));
  }
  const config = step.with;
  if (run.log.folder.group(stepPath) === undefined) {
    await run.log.append([
      {
        type: "ParallelGroupStarted",
        payload: { stepPath, stepId: step.id, itemKeys: items.map((entry) => entry.itemKey), maxConcurrency: config.maxConcurrency, failureMode: config.failureMode },
      },
    ]);
  }

  const attemptPath = groupAttemptPath(stepPath, attempt);
  const branchSlots = new Semaphore(config.maxConcurrency);
  let firstFailure: StepFailure | undefined;
  const outerSteps = expressions.steps;
  const settled = await Promise.allSettled(
    items.map(({ item, itemKey }, index) =>
      branchSlots.run(async (): Promise<FanInEntry | undefined> => {
        const recordedBranch = run.log.folder.branch(stepPath, itemKey);
        // A branch completed by an earlier attempt is reused where it ran; any other runs (or
        // resumes) under this attempt's path.
        const reused = recordedBranch?.status === "completed";
        const branchPath = reused ? recordedBranch.branchPath : branchPathFor(attemptPath, itemKey);
        const startedInThisAttempt = recordedBranch !== undefined && recordedBranch.branchPath === branchPath;
        // fail_fast: a branch not yet started when another failed is never started.
        if (config.failureMode === "fail_fast" && firstFailure !== undefined && !startedInThisAttempt) return undefined;
        if (!startedInThisAttempt) {
          await run.log.append([{ type: "ParallelBranchScheduled", payload: { stepPath, itemKey, index, branchPath } }]);
        }
        try {
          const outcome = await runScope({
            run,
            steps: step.steps,
            prefix: branchPath,
            scopeName: `branch ${branchPath}`,
            outerSteps,
            item: { value: item },
            parallel: { groupPath: stepPath, itemKey },
          });
          const outputStep = config.fanIn.outputStep;
          const source = outputStep === undefined ? outcome.lastCompleted : outcome.outputsById.get(outputStep)?.at(-1);
          if (source === undefined) {
            throw new StepFailure("step_failed", branchPath, {
              name: "FanInOutputError",
              message: outputStep === undefined ? `branch ${branchPath} completed no non-decision step, so it has no output` : `branch ${branchPath} never completed its fanIn.outputStep "${outputStep}"`,
              causeCode: "step_failed",
              retriable: false,
            });
          }
          if (run.log.folder.branch(stepPath, itemKey)?.status !== "completed") {
            await run.log.append([{ type: "ParallelBranchCompleted", payload: { stepPath, itemKey, branchPath, outputStepPath: source.stepPath } }]);
          }
          return { itemKey, status: "completed", output: source.output, outputRef: source.outputRef, artifacts: source.artifactRefs };
        } catch (error) {
          const failure = error instanceof StepFailure ? error : new StepFailure("step_failed", branchPath, stepErrorOf(error, "step_failed"));
          // Timeout and cancellation end the whole run, never just one branch.
          if (failure.causeCode === "timeout" || failure.causeCode === "cancelled") throw failure;
          firstFailure ??= failure;
          if (run.log.folder.branch(stepPath, itemKey)?.status !== "failed") {
            await run.log.append([
              { type: "ParallelBranchFailed", payload: { stepPath, itemKey, branchPath, error: failure.error, ...(failure.failedStepPath === undefined ? {} : { failedStepPath: failure.failedStepPath }) } },
            ]);
          }
          return { itemKey, status: "failed", error: failure.error, artifacts: [] };
        }
      }),
    ),
  );
  const aborted = settled.find((entry): entry is PromiseRejectedResult => entry.status === "rejected");
  if (aborted !== undefined) throw aborted.reason;
  const entries = settled.map((entry) => (entry as PromiseFulfilledResult<FanInEntry | undefined>).value).filter((entry): entry is FanInEntry => entry !== undefined);
  if (config.failureMode === "fail_fast" && firstFailure !== undefined) return { kind: "failed", failure: firstFailure };
  if (config.fanIn.order === "itemKey") entries.sort((left, right) => (left.itemKey < right.itemKey ? -1 : left.itemKey > right.itemKey ? 1 : 0));
  const failed = entries.filter((entry) => entry.status === "failed").length;
  await run.log.append([{ type: "ParallelGroupCompleted", payload: { stepPath, completed: entries.length - failed, failed } }]);
  // The fan-in is derived from the branches' committed outputs: it commits with the next boundary.
  return { kind: "completed", committed: await commitStepOutput({ run, step, stepPath, attempt, output: entries, artifactRefs: [], derived: true }) };
}

function resolveItems(step: LwirParallelStep, expressions: ExpressionContext, stepPath: string): { item: unknown; itemKey: string }[] {
  const items = evaluateTemplateString(step.with.items, expressions);
  if (!Array.isArray(items)) throw new Error(`parallel ${stepPath}: with.items resolved to ${items === null ? "null" : typeof items}, not an array`);
  if (items.length > step.with.maxBranches) {
    throw new Error(`parallel ${stepPath}: with.items has ${items.length} items but maxBranches is ${step.with.maxBranches}`);
  }
  const seen = new Set<string>();
  return items.map((item, index) => {
    const key = evaluateTemplateString(step.with.itemKey, Object.assign({}, expressions, { item }));
    if (typeof key !== "string" && typeof key !== "number") {
      throw new Error(`parallel ${stepPath}: itemKey of item ${index} resolved to ${JSON.stringify(key) ?? String(key)}; it must be a string or a number`);
    }
    const itemKey = String(key);
    if (seen.has(itemKey)) throw new Error(`parallel ${stepPath}: items ${index} and an earlier one share the itemKey "${itemKey}"; item keys must be unique`);
    seen.add(itemKey);
    return { item, itemKey };
  });
}
