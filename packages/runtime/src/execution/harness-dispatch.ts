import { createHarnessEventRecorder, type HarnessContext, type HarnessEventSink, type HarnessManifest, type HarnessResult, type HarnessRole, type HarnessTask, type ResolvedModel } from "@little-stack/harness";
import { createPrivateSlot } from "@little-stack/canonical";
import type { Cancellation } from "./cancellation.js";
import type { SessionResources } from "./session-resources.js";
import { MissingModelSlotError } from "../errors/runtime-config-errors.js";
import type { RunContext } from "./run-context.js";
import { StepFailure } from "./step-failure.js";

/**
 * The context the runtime hands a worker or fixer harness. Beyond `HarnessContext` it carries
 * the session's manifest and key (so a resumed attempt reopens the same durable session) and
 * the step path it works for.
 */
export type RuntimeHarnessContext = HarnessContext & {
  readonly manifest: HarnessManifest;
  readonly sessionKey: string;
  readonly stepPath: string;
  readonly visitIndex: number;
};

// Steps without a model (tool.call, decision, code.run) still get a ResolvedModel: one that refuses.
const noModel: ResolvedModel = {
  slotId: "none",
  provider: "none",
  modelId: "none",
  model: {
    specificationVersion: "v3",
    provider: "none",
    modelId: "none",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("This step has no model slot: only ai.generate steps and fixers call a model.")),
    doStream: () => Promise.reject(new Error("This step has no model slot: only ai.generate steps and fixers call a model.")),
  },
};

export function resolveModelSlot(run: RunContext, slotId: string | undefined, stepPath: string): ResolvedModel {
  if (slotId === undefined) return noModel;
  const model = run.models.get(slotId);
  if (model === undefined) throw new MissingModelSlotError({ slotId, stepPath, available: [...run.models.keys()] });
  return model;
}

export function harnessContextFor(options: {
  readonly run: RunContext;
  readonly role: HarnessRole;
  readonly model: ResolvedModel;
  readonly system: string | undefined;
  readonly manifest: HarnessManifest;
  /** The session's mounts and skills (`sessionResources`). */
  readonly resources: SessionResources;
  readonly sessionKey: string;
  readonly stepPath: string;
  readonly visitIndex: number;
  readonly attemptStartedSequence: number;
  /** A direct-execute step (tool.call, decision): its session results ride with its StepCompleted. */
  readonly directStep?: boolean;
}): RuntimeHarnessContext {
  const { run } = options;
  const logSink = run.log.harnessSink({ stepPath: options.stepPath, afterSequence: options.attemptStartedSequence, directStep: options.directStep === true });
  // Once the attempt is cancelled the runtime records how it ended: a harness still winding
  // down may not append after that.
  const sink: HarnessEventSink = {
    ...logSink,
    append: (events) => {
      if (run.cancellation.cancelled) return Promise.reject(new Error(`Step ${options.stepPath} was cancelled: its harness events are no longer recorded.`));
      return logSink.append(events);
    },
  };
  const context: Omit<RuntimeHarnessContext, "abortSignal"> = {
    scope: { runId: run.runId, logDir: run.logDir, role: options.role },
    model: options.model,
    ...(options.system === undefined ? {} : { system: options.system }),
    tools: run.tools.tools,
    memoryMounts: options.resources.memoryMounts,
    scratchMounts: options.resources.scratchMounts,
    skills: options.resources.skills,
    mounts: options.resources.skillMounts,
    // Only a session with a shell (the fixer) is given what the shell may do.
    ...(options.role === "fixer" && options.resources.bash !== undefined ? { bashCapabilities: options.resources.bash } : {}),
    durability: sink,
    recorder: createHarnessEventRecorder({ sink }),
    manifest: options.manifest,
    sessionKey: options.sessionKey,
    stepPath: options.stepPath,
    visitIndex: options.visitIndex,
  };
  attemptCancellation.attach(context, run.cancellation);
  return Object.defineProperty(context, "abortSignal", attemptAbortSignal) as unknown as RuntimeHarnessContext;
}

/**
 * The context's `abortSignal` is read when the harness reads it, so the attempt's AbortSignal is
 * only made then (see Cancellation): one shared accessor reading a private slot, since a getter
 * closing over the run would put each context in dictionary mode with a closure of its own.
 */
const attemptCancellation = createPrivateSlot<Cancellation>();
const attemptAbortSignal = attemptCancellation.accessor((cancellation) => cancellation.signal, { configurable: true });

/**
 * Runs one harness task, following `delegate_to_default`, and stops waiting as soon as the run
 * is aborted (a harness that ignores its abort signal cannot hold the run open).
 */
export async function dispatchToHarness(run: RunContext, task: HarnessTask, ctx: RuntimeHarnessContext): Promise<HarnessResult> {
  const result = await raceAbort(run, ctx.stepPath, run.harness.run(task, ctx));
  if (result.kind !== "delegate_to_default") return result;
  if (run.defaultHarness === undefined || run.defaultHarness === run.harness) {
    throw new StepFailure("runtime_config_error", ctx.stepPath, {
      name: "HarnessDelegationError",
      message: `The worker harness delegated step ${ctx.stepPath} to the default harness, but no default workflowHarness is available.`,
      causeCode: "runtime_config_error",
      retriable: false,
    });
  }
  const delegated = await raceAbort(run, ctx.stepPath, run.defaultHarness.run(task, ctx));
  if (delegated.kind === "delegate_to_default") {
    throw new StepFailure("runtime_config_error", ctx.stepPath, {
      name: "HarnessDelegationError",
      message: `The default harness delegated step ${ctx.stepPath} back: it must execute it.`,
      causeCode: "runtime_config_error",
      retriable: false,
    });
  }
  return delegated;
}

/**
 * The StepFailure of work cut short by its cancellation: the run's timeout or AbortSignal
 * (`timeout` / `cancelled`), or another step's terminal failure (`cancelled`, a
 * `StepCancelledError` naming that step).
 */
export function abortFailure(run: RunContext, stepPath: string | undefined): StepFailure {
  const reason = run.cancellation.reason;
  if (reason?.kind === "failure") {
    const failed = reason.primary.failedStepPath;
    return new StepFailure("cancelled", stepPath, {
      name: "StepCancelledError",
      message: `${stepPath === undefined ? "the step" : `step ${stepPath}`} was cancelled because ${failed === undefined ? "the run failed" : `step ${failed} failed`} (${reason.primary.causeCode})`,
      causeCode: "cancelled",
      retriable: false,
      code: stepCancelledCode,
    });
  }
  const cause = reason?.kind === "run" ? reason.cause : "cancelled";
  const message = cause === "timeout" ? "the run's timeout elapsed" : "the run was cancelled through its AbortSignal";
  return new StepFailure(cause, stepPath, { name: cause === "timeout" ? "RunTimeoutError" : "RunCancelledError", message, causeCode: cause, retriable: false });
}

/** The `code` of a step attempt cancelled because another step of its list failed. */
export const stepCancelledCode = "runtime.step_cancelled";

/**
 * Settles like `work`, or rejects with the abort failure as soon as the run context's cancellation
 * fires (a harness that ignores its abort signal cannot hold the run open). The waiter is removed
 * when `work` settles, so nothing accumulates however many steps are in flight.
 */
export function raceAbort<T>(run: RunContext, stepPath: string, work: Promise<T>): Promise<T> {
  if (run.cancellation.cancelled) {
    work.catch(() => undefined);
    return Promise.reject(abortFailure(run, stepPath));
  }
  return new Promise<T>((resolve, reject) => {
    const remove = run.cancellation.onCancel(() => reject(abortFailure(run, stepPath)));
    work.then(
      (value) => {
        remove();
        resolve(value);
      },
      (error: unknown) => {
        remove();
        reject(run.cancellation.cancelled ? abortFailure(run, stepPath) : error);
      },
    );
  });
}
