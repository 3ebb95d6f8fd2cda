import { harnessSessionId, toErrorEnvelope, type HarnessResult } from "@little-stack/harness";
import { isoNow } from "@little-stack/local-world";
import { isTruthy, resolveTemplates, type ExpressionContext, type LwirBodyStep, type LwirDecisionStep, type LwirStep } from "@little-stack/lwir";
import type { StepErrorPayload, StepFailedPayload } from "../events/runtime-event-types.js";
import type { PrimaryFailure } from "./cancellation.js";
import { commitStepOutput, recordedOutput, type CommittedOutput } from "./commit-step-output.js";
import { abortFailure, dispatchToHarness, harnessContextFor, raceAbort, resolveModelSlot } from "./harness-dispatch.js";
import type { RunContext } from "./run-context.js";
import { attemptIdFor } from "./step-path.js";
import { sessionResources } from "./session-resources.js";
import { causeOfHarnessError, StepFailure, stepErrorOf } from "./step-failure.js";
import { fixerManifestFor, workerManifestFor, workerRoleFor } from "./worker-manifest.js";

export type StepInvocation = {
  readonly step: LwirBodyStep;
  readonly stepPath: string;
  readonly visitIndex: number;
  readonly expressions: ExpressionContext;
  readonly parallel?: { readonly groupPath: string; readonly itemKey: string };
};

/**
 * Executes one step path to a committed output: reuses a completed one, resumes an in-flight
 * attempt on the same attempt number (its harness session replays what it recorded), retries
 * retriable failures up to `retry.maxAttempts`, runs the fixer for `code.run`, and throws a
 * StepFailure when the step cannot complete.
 *
 * Each attempt holds one of the run's `maxConcurrentSteps` slots from `StepAttemptStarted` to its
 * `StepCompleted`/`StepFailed` (the fixer runs inside it; a retry's backoff does not hold one), and
 * has its own cancellation node: cancelled, the attempt records `StepFailed` (cause `timeout` or
 * `cancelled`) and ends the sessions it left open as failed with the same error.
 */
export async function runStep(run: RunContext, invocation: StepInvocation): Promise<CommittedOutput> {
  const { step, stepPath } = invocation;
  const recorded = await recordedOutput(run, stepPath);
  if (recorded !== undefined) return recorded;
  const maxAttempts = step.retry?.maxAttempts ?? 1;
  let state = run.log.folder.step(stepPath);
  if (state?.status === "failed" && state.error !== undefined && (!state.error.retriable || state.attempts >= maxAttempts)) {
    throw await recordedFailure(run, stepPath, state.error);
  }
  for (;;) {
    if (run.cancellation.cancelled) throw abortFailure(run, stepPath);
    const release = await acquireSlot(run, stepPath);
    let outcome: AttemptOutcome;
    let attempt: number;
    const attemptRun: RunContext = { ...run, cancellation: run.cancellation.child() };
    let releaseEvents: (() => void) | undefined;
    try {
      state = run.log.folder.step(stepPath);
      const resuming = state?.status === "running";
      attempt = resuming ? state!.attempts : (state?.attempts ?? 0) + 1;
      if (!resuming) {
        const attemptEvent = { type: "StepAttemptStarted" as const, payload: { stepPath, stepId: step.id, attempt, attemptId: attemptIdFor(attempt), startedAt: isoNow() } };
        // Scheduling and the first attempt are not result boundaries: one batch.
        await run.log.append(
          state === undefined
            ? [
                {
                  type: "StepScheduled",
                  payload: { stepPath, stepId: step.id, uses: step.uses, visitIndex: invocation.visitIndex, ...(invocation.parallel === undefined ? {} : { parallel: invocation.parallel }) },
                },
                attemptEvent,
              ]
            : [attemptEvent],
        );
      }
      const attemptStartedSequence = run.log.folder.step(stepPath)!.attemptStartedSequence ?? 0;
      // The attempt's sessions list their own events: memory keeps them until the attempt ends.
      releaseEvents = run.log.holdFrom(attemptStartedSequence);
      outcome = await attemptStep({ run: attemptRun, invocation, attempt, attemptStartedSequence });
      if (outcome.kind === "completed") return outcome.committed;
      const reason = attemptRun.cancellation.reason;
      // Halted: stop as a killed process would, recording nothing more.
      if (reason?.kind === "halt") throw abortFailure(attemptRun, stepPath);
      const cancelledBy = reason?.kind === "failure" ? { cancelledBy: reason.primary } : {};
      const sessionsEnded = reason === undefined ? [] : await openSessionsEnded(run, { stepPath, attempt, attemptStartedSequence, error: outcome.error });
      await run.log.appendAny([
        ...run.log.takeParkedCall(stepPath),
        ...sessionsEnded,
        {
          type: "StepFailed",
          payload: { stepPath, stepId: step.id, attempt, error: outcome.error, ...(outcome.fixedSource === undefined ? {} : { fixedSource: outcome.fixedSource }), ...cancelledBy },
        },
      ]);
    } finally {
      // Halted, the attempt records nothing more: a parked call announcement goes with the rest.
      run.log.takeParkedCall(stepPath);
      releaseEvents?.();
      attemptRun.cancellation.dispose();
      release();
    }
    const error = outcome.error;
    if (!error.retriable || attempt >= maxAttempts) throw new StepFailure(error.causeCode ?? "step_failed", stepPath, error);
    await backoff(run, step, attempt, stepPath);
  }
}

/** One of the run's step slots; a cancellation while waiting ends the wait (the slot, once granted, is handed on). */
async function acquireSlot(run: RunContext, stepPath: string): Promise<() => void> {
  const immediate = run.stepSlots.tryAcquire();
  if (immediate !== undefined) return immediate;
  const granted = run.stepSlots.acquire();
  try {
    return await raceAbort(run, stepPath, granted);
  } catch (error) {
    void granted.then((release) => release());
    throw error;
  }
}

/**
 * The recorded terminal failure of a step path, as a StepFailure. A step that was cancelled
 * because another step failed (or failed on its own after that) recorded that failure as
 * `cancelledBy`: resuming, the list fails with it again, whichever of its steps it meets first.
 */
async function recordedFailure(run: RunContext, stepPath: string, error: StepErrorPayload): Promise<StepFailure> {
  const cancelledBy = await recordedCancellation(run, stepPath);
  if (cancelledBy !== undefined) return new CancelledStepFailure(stepPath, error, cancelledBy);
  return new StepFailure(error.causeCode ?? "step_failed", stepPath, error);
}

/** A step attempt that ended because another step of its list had failed: carries that failure. */
export class CancelledStepFailure extends StepFailure {
  constructor(
    stepPath: string,
    error: StepErrorPayload,
    readonly primary: PrimaryFailure,
  ) {
    super(error.causeCode ?? "cancelled", stepPath, error);
  }
}

async function recordedCancellation(run: RunContext, stepPath: string): Promise<PrimaryFailure | undefined> {
  // Only a resumed run that was failing gets here: finding the step's last StepFailed is rare.
  const failed = await run.log.lastCommitted("StepFailed", (event) => (event.payload as StepFailedPayload).stepPath === stepPath);
  return (failed?.payload as StepFailedPayload | undefined)?.cancelledBy;
}

/**
 * `harness.session.failed` for the sessions of a cancelled attempt that were started and never
 * ended (the step's and its fixer's), so a cancelled session reads as ended, with the cancel
 * error, rather than as still in flight.
 */
async function openSessionsEnded(
  run: RunContext,
  options: { readonly stepPath: string; readonly attempt: number; readonly attemptStartedSequence: number; readonly error: StepErrorPayload },
): Promise<{ readonly type: string; readonly payload: unknown }[]> {
  const { stepPath, attempt } = options;
  const keys = [`step:${stepPath}@${attemptIdFor(attempt)}`, `fix:${stepPath}@${attemptIdFor(attempt)}`];
  const sessionIds = new Set(keys.map((sessionKey) => harnessSessionId({ runId: run.runId, sessionKey })));
  const events = await run.log.harnessSink({ stepPath, afterSequence: options.attemptStartedSequence }).list();
  const open = new Set<string>();
  for (const event of events) {
    const sessionId = (event.payload as { sessionId?: string }).sessionId;
    if (sessionId === undefined || !sessionIds.has(sessionId)) continue;
    if (event.type === "harness.session.started") open.add(sessionId);
    else if (event.type === "harness.session.completed" || event.type === "harness.session.failed") open.delete(sessionId);
  }
  const { name, message, code, causeCode, retriable } = options.error;
  const error = { name, message, ...(code === undefined ? {} : { code }), ...(causeCode === undefined ? {} : { causeCode }), retriable };
  return [...open].map((sessionId) => ({ type: "harness.session.failed", payload: { runId: run.runId, sessionId, stepPath, error } }));
}

type AttemptOutcome =
  | { readonly kind: "completed"; readonly committed: CommittedOutput }
  | { readonly kind: "failed"; readonly error: StepErrorPayload; readonly fixedSource?: string };

async function attemptStep(options: {
  readonly run: RunContext;
  readonly invocation: StepInvocation;
  readonly attempt: number;
  readonly attemptStartedSequence: number;
}): Promise<AttemptOutcome> {
  const { run, invocation, attempt, attemptStartedSequence } = options;
  const { step, stepPath, visitIndex } = invocation;
  let resolvedStep: LwirBodyStep;
  let stepInput: unknown;
  try {
    ({ resolvedStep, stepInput } = resolveStepInput(invocation));
  } catch (error) {
    return { kind: "failed", error: stepErrorOf(error, "runtime_config_error") };
  }
  let result: HarnessResult;
  try {
    const model = resolveModelSlot(run, step.uses === "ai.generate" ? step.with.model : undefined, stepPath);
    const role = workerRoleFor(step);
    const resources = await sessionResources(run, { role, stepPath, direct: step.uses === "tool.call" || step.uses === "decision" });
    const ctx = harnessContextFor({
      run,
      role,
      model,
      system: systemOf(resolvedStep),
      manifest: workerManifestFor(run, step, stepPath, resources),
      resources,
      sessionKey: `step:${stepPath}@${attemptIdFor(attempt)}`,
      stepPath,
      visitIndex,
      attemptStartedSequence,
      // code.run is left out: its code makes several tool calls, and holding their results would
      // re-execute more than the one in-flight call after a crash.
      directStep: step.uses === "tool.call" || step.uses === "decision",
    });
    result = await dispatchToHarness(run, { kind: "execute_step", step: resolvedStep, stepInput, stepContext: { stepPath, visitIndex } }, ctx);
    if (result.kind !== "execute_step") throw new Error(`The worker harness answered an execute_step task with a "${result.kind}" result.`);
  } catch (error) {
    if (error instanceof StepFailure) return { kind: "failed", error: error.error };
    const causeCode = causeOfHarnessError(error);
    const failure = stepErrorOf(error, causeCode);
    if (step.uses === "code.run" && step.onFailure?.fixer !== undefined && failure.retriable) {
      return runFixer({ run, invocation, resolvedStep, stepInput, attempt, attemptStartedSequence, originalError: error, failure });
    }
    return { kind: "failed", error: failure };
  }
  // A harness that announced a call and returned without settling it: the announcement is logged.
  const unsettled = run.log.takeParkedCall(stepPath);
  if (unsettled.length > 0) await run.log.appendAny(unsettled);
  const committed = await commitStepOutput({ run, step, stepPath, attempt, output: result.output, artifactRefs: result.artifactRefs.map((ref) => ref.id) });
  return { kind: "completed", committed };
}

async function runFixer(options: {
  readonly run: RunContext;
  readonly invocation: StepInvocation;
  readonly resolvedStep: LwirBodyStep;
  readonly stepInput: unknown;
  readonly attempt: number;
  readonly attemptStartedSequence: number;
  readonly originalError: unknown;
  readonly failure: StepErrorPayload;
}): Promise<AttemptOutcome> {
  const { run, invocation, attempt } = options;
  const { step, stepPath, visitIndex } = invocation;
  const fixer = step.onFailure!.fixer!;
  let fixedSource: string | undefined;
  try {
    const resources = await sessionResources(run, { role: "fixer", stepPath, direct: false });
    const ctx = harnessContextFor({
      run,
      role: "fixer",
      model: resolveModelSlot(run, fixer.model, stepPath),
      system: fixer.system,
      manifest: fixerManifestFor(run, step, stepPath, resources),
      resources,
      sessionKey: `fix:${stepPath}@${attemptIdFor(attempt)}`,
      stepPath,
      visitIndex,
      attemptStartedSequence: options.attemptStartedSequence,
    });
    const task = { kind: "fix_step" as const, step: options.resolvedStep, stepInput: options.stepInput, originalAttemptError: toErrorEnvelope(options.originalError), priorFixAttempts: 0 };
    const result = await dispatchToHarness(run, task, ctx);
    if (result.kind !== "fix_step") throw new Error(`The harness answered a fix_step task with a "${result.kind}" result.`);
    fixedSource = result.fixedSource;
    const committed = await commitStepOutput({ run, step, stepPath, attempt, output: result.output, artifactRefs: [], fixedSource });
    return { kind: "completed", committed };
  } catch (error) {
    if (error instanceof StepFailure) {
      if (error.causeCode === "step_schema_error") throw error;
      return { kind: "failed", error: error.error };
    }
    const fixerError = stepErrorOf(error, causeOfHarnessError(error));
    return {
      kind: "failed",
      error: { ...options.failure, message: `${options.failure.message} (the fixer did not repair it: ${fixerError.message})`, retriable: options.failure.retriable && fixerError.retriable },
      ...(fixedSource === undefined ? {} : { fixedSource }),
    };
  }
}

/**
 * The step input (lwir.md §2: `input`, else `with.args`, else the workflow input or the branch
 * item) and the step with its `with` templates resolved. code.run files are never resolved: their
 * content is source code.
 */
export function resolveStepInput(invocation: StepInvocation): { resolvedStep: LwirBodyStep; stepInput: unknown } {
  const { step, expressions } = invocation;
  // Not `{ ...expressions, step }`: slow on Node 20 (README, "No literal opening with a spread").
  const context: ExpressionContext = Object.assign({}, expressions, { step });
  let resolvedWith: unknown = step.with;
  if (step.uses === "decision") resolvedWith = resolveDecisionCases(step, context);
  else if (step.uses !== "code.run") resolvedWith = resolveTemplates(step.with, context);
  const withArgs = (step.with as { args?: unknown }).args;
  let stepInput: unknown;
  if (step.input !== undefined) stepInput = resolveTemplates(step.input, context);
  else if (withArgs !== undefined) stepInput = (resolvedWith as { args?: unknown }).args;
  else stepInput = Object.hasOwn(expressions, "item") ? expressions.item : expressions.input;
  const resolvedStep = (resolvedWith === step.with ? step : { ...step, with: resolvedWith }) as LwirBodyStep;
  return { resolvedStep, stepInput };
}

/**
 * A decision's `when` templates, evaluated in order up to the first truthy one (later cases are
 * never evaluated, as "first truthy wins" implies, and are passed on as false).
 */
function resolveDecisionCases(step: LwirDecisionStep, context: ExpressionContext): LwirDecisionStep["with"] {
  let decided = false;
  const cases = step.with.cases.map((entry, index) => {
    if (decided) return { ...entry, when: false as unknown as string };
    const when = resolveTemplates({ cases: { [index]: entry.when } }, context) as { cases: Record<number, unknown> };
    const value = when.cases[index];
    decided = isTruthy(value);
    return { ...entry, when: value as string };
  });
  return { ...step.with, cases };
}

/** Waits `retry.backoff` before the next attempt (none without a policy); an abort ends the wait. */
export async function backoff(run: RunContext, step: LwirStep, attempt: number, stepPath: string): Promise<void> {
  const policy = step.retry?.backoff;
  if (policy === undefined) return;
  const delay = Math.min(policy.initialMs * policy.factor ** (attempt - 1), policy.maxMs);
  if (delay <= 0) return;
  if (run.cancellation.cancelled) throw abortFailure(run, stepPath);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      remove();
      resolve();
    }, delay);
    const remove = run.cancellation.onCancel(() => {
      clearTimeout(timer);
      reject(abortFailure(run, stepPath));
    });
  });
}

function systemOf(step: LwirBodyStep): string | undefined {
  if (step.uses !== "ai.generate") return undefined;
  return typeof step.with.system === "string" ? step.with.system : undefined;
}
