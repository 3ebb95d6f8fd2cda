import { toErrorEnvelope, type HarnessResult } from "@little-stack/harness";
import { isTruthy, resolveTemplates, type ExpressionContext, type LwirBodyStep, type LwirDecisionStep, type LwirStep } from "@little-stack/lwir";
import type { StepErrorPayload } from "../events/runtime-event-types.js";
import { commitStepOutput, recordedOutput, type CommittedOutput } from "./commit-step-output.js";
import { abortFailure, dispatchToHarness, harnessContextFor, resolveModelSlot } from "./harness-dispatch.js";
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

/** Schedules a step path once (a resumed run finds it already scheduled). */
export async function ensureScheduled(run: RunContext, invocation: Omit<StepInvocation, "expressions" | "step"> & { readonly step: LwirStep }): Promise<void> {
  if (run.log.folder.step(invocation.stepPath) !== undefined) return;
  await run.log.append([
    {
      type: "StepScheduled",
      payload: {
        stepPath: invocation.stepPath,
        stepId: invocation.step.id,
        uses: invocation.step.uses,
        visitIndex: invocation.visitIndex,
        ...(invocation.parallel === undefined ? {} : { parallel: invocation.parallel }),
      },
    },
  ]);
}

/**
 * Executes one step path to a committed output: reuses a completed one, resumes an in-flight
 * attempt on the same attempt number (its harness session replays what it recorded), retries
 * retriable failures up to `retry.maxAttempts`, runs the fixer for `code.run`, and throws a
 * StepFailure when the step cannot complete.
 */
export async function runStep(run: RunContext, invocation: StepInvocation): Promise<CommittedOutput> {
  const { step, stepPath } = invocation;
  const recorded = await recordedOutput(run, stepPath);
  if (recorded !== undefined) return recorded;
  const maxAttempts = step.retry?.maxAttempts ?? 1;
  let state = run.log.folder.step(stepPath);
  if (state?.status === "failed" && state.error !== undefined && (!state.error.retriable || state.attempts >= maxAttempts)) {
    throw new StepFailure(state.error.causeCode ?? "step_failed", stepPath, state.error);
  }
  for (;;) {
    if (run.signal.aborted) throw abortFailure(run, stepPath);
    state = run.log.folder.step(stepPath);
    const resuming = state?.status === "running";
    const attempt = resuming ? state!.attempts : (state?.attempts ?? 0) + 1;
    if (!resuming) {
      const attemptEvent = { type: "StepAttemptStarted" as const, payload: { stepPath, stepId: step.id, attempt, attemptId: attemptIdFor(attempt) } };
      if (state === undefined) {
        // Scheduling and the first attempt are not result boundaries: one batch.
        await run.log.append([
          {
            type: "StepScheduled",
            payload: { stepPath, stepId: step.id, uses: step.uses, visitIndex: invocation.visitIndex, ...(invocation.parallel === undefined ? {} : { parallel: invocation.parallel }) },
          },
          attemptEvent,
        ]);
      } else {
        await run.log.append([attemptEvent]);
      }
    }
    const attemptStartedSequence = run.log.folder.step(stepPath)!.attemptStartedSequence ?? 0;
    const outcome = await attemptStep({ run, invocation, attempt, attemptStartedSequence });
    if (outcome.kind === "completed") return outcome.committed;
    const error = outcome.error;
    await run.log.append([
      { type: "StepFailed", payload: { stepPath, stepId: step.id, attempt, error, ...(outcome.fixedSource === undefined ? {} : { fixedSource: outcome.fixedSource }) } },
    ]);
    if (!error.retriable || attempt >= maxAttempts) throw new StepFailure(error.causeCode ?? "step_failed", stepPath, error);
    await backoff(run, step, attempt, stepPath);
  }
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
    result = await run.stepSlots.run(() => dispatchToHarness(run, { kind: "execute_step", step: resolvedStep, stepInput, stepContext: { stepPath, visitIndex } }, ctx));
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
    const result = await run.stepSlots.run(() => dispatchToHarness(run, task, ctx));
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
  const context: ExpressionContext = { ...expressions, step };
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
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      run.signal.removeEventListener("abort", onAbort);
      resolve();
    }, delay);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortFailure(run, stepPath));
    };
    run.signal.addEventListener("abort", onAbort, { once: true });
  });
}

function systemOf(step: LwirBodyStep): string | undefined {
  if (step.uses !== "ai.generate") return undefined;
  return typeof step.with.system === "string" ? step.with.system : undefined;
}
