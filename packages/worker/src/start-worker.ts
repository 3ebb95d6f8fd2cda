import { LittleWorkflowError } from "@little-stack/canonical";
import { createToolRegistry, type Harness, type ToolRegistry } from "@little-stack/harness";
import { isRunQueue, type RunClaim, type RunQueue, type World } from "@little-stack/local-world";
import type { LwirDocument } from "@little-stack/lwir";
import type { ModelRegistry } from "@little-stack/models";
import { executeWorkflowVersion, RunFailedError, type ModelSlotValue } from "@little-stack/runtime";
import { worldHeldBy } from "./leased-world.js";
import { checkSubmittedRunOptions } from "./run-options.js";
import { InvalidWorkerOptionsError, WorldWithoutQueueError } from "./worker-errors.js";

export type StartWorkerOptions = {
  /** A world with a run queue: `postgresWorld({ connectionString, … })`. */
  readonly world: World;
  /** This worker's tools: a registry, or a record of AI SDK `tool()`s. It claims only runs whose tools it has. */
  readonly tools?: ToolRegistry | Readonly<Record<string, unknown>>;
  /** Model slot id → model. It claims only runs whose model slots it has. */
  readonly models?: Readonly<Record<string, ModelSlotValue>>;
  /** Runs held and executed at once. Default 4. */
  readonly concurrency?: number;
  /** How long to wait before asking again when nothing was runnable. Default 500 ms. */
  readonly pollEveryMs?: number;
  readonly workerHarness?: Harness;
  readonly defaultHarness?: Harness;
  readonly modelRegistry?: ModelRegistry;
  /** Told what happens to each run (claimed, finished, lost, errors): for logs and metrics. */
  readonly onEvent?: (event: WorkerEvent) => void;
  /** Aborting it stops the worker as `stop()` does. */
  readonly signal?: AbortSignal;
};

export type WorkerEvent =
  | { readonly type: "claimed"; readonly runId: string; readonly fence: number; readonly claims: number; readonly takenOverFrom?: string }
  | { readonly type: "completed"; readonly runId: string }
  | { readonly type: "failed"; readonly runId: string; readonly error: unknown }
  /** The lease was lost (lapsed, taken over): the run was stopped here, having written nothing after. */
  | { readonly type: "lease_lost"; readonly runId: string; readonly reason: string }
  /** The storage failed under a run (unreachable past its retries): its lease was released for another try. */
  | { readonly type: "run_error"; readonly runId: string; readonly error: unknown }
  | { readonly type: "claim_error"; readonly error: unknown };

export type Worker = {
  /** The holder id on this worker's leases. */
  readonly holder: string;
  /** Runs being executed right now. */
  readonly inFlight: number;
  /** Stops claiming; resolves once the runs in flight have finished (or lost their lease). */
  stop(): Promise<void>;
  /** Settles when the worker stopped (after `stop()` or its signal). */
  readonly stopped: Promise<void>;
};

/**
 * Starts a worker: it claims runnable runs from the world's queue (`FOR UPDATE SKIP LOCKED` in
 * PostgreSQL — claimers never wait on each other), including runs whose holder's lease lapsed,
 * and executes each with `executeWorkflowVersion` under the claimed lease: every append names the
 * lease's fence, and losing the lease stops the run at once without writing. A taken-over run
 * resumes exactly as a kill and resume does.
 */
export function startWorker(options: StartWorkerOptions): Worker {
  const { world } = options;
  if (!isRunQueue(world)) throw new WorldWithoutQueueError("start a worker");
  const queue: World & RunQueue = world;
  const tools = toolRegistryOf(options.tools);
  const models = options.models ?? {};
  const concurrency = positive("concurrency", options.concurrency, 4);
  const pollEveryMs = positive("pollEveryMs", options.pollEveryMs, 500);
  const emit = (event: WorkerEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's failure must not stop the worker.
    }
  };
  const inFlight = new Set<Promise<void>>();
  const wake = new AbortController();
  let stopping = false;
  let holder = (world as { settings?: { holder?: string } }).settings?.holder ?? `worker:${process.pid}`;

  const stop = (): Promise<void> => {
    stopping = true;
    wake.abort();
    return stopped;
  };
  options.signal?.addEventListener("abort", () => void stop(), { once: true });

  async function execute(claim: RunClaim): Promise<void> {
    const { submission, lock } = claim;
    holder = lock.holder;
    emit({
      type: "claimed",
      runId: submission.runId,
      fence: lock.fence,
      claims: submission.claims,
      ...(lock.recoveredFrom?.holder === undefined ? {} : { takenOverFrom: lock.recoveredFrom.holder }),
    });
    try {
      const runOptions = checkSubmittedRunOptions(submission.options);
      await executeWorkflowVersion({
        world: worldHeldBy(queue, lock),
        workflowVersion: submission.workflowVersion as unknown as { id: string; hash?: string; lwir: LwirDocument },
        input: submission.input,
        runId: submission.runId,
        tools,
        models,
        // Losing the lease stops the run; the held world refuses every append from then on.
        signal: lock.signal,
        ...(options.workerHarness === undefined ? {} : { workerHarness: options.workerHarness }),
        ...(options.defaultHarness === undefined ? {} : { defaultHarness: options.defaultHarness }),
        ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }),
        ...(runOptions.timeout === undefined ? {} : { timeout: runOptions.timeout }),
        ...(runOptions.workflowId === undefined ? {} : { workflowId: runOptions.workflowId }),
        ...(runOptions.memory === undefined ? {} : { memory: runOptions.memory }),
        ...(runOptions.workerSkills === undefined ? {} : { workerSkills: runOptions.workerSkills }),
        ...(runOptions.parentRunId === undefined ? {} : { parentRunId: runOptions.parentRunId }),
        ...(runOptions.outerLoopId === undefined ? {} : { outerLoopId: runOptions.outerLoopId }),
      });
      await queue.finishRun(lock, "completed");
      emit({ type: "completed", runId: submission.runId });
    } catch (error) {
      if (lock.signal.aborted || LittleWorkflowError.is(error, "world.lease_lost")) {
        const reason = LittleWorkflowError.is(lock.signal.reason) ? lock.signal.reason.message : error instanceof Error ? error.message : String(error);
        emit({ type: "lease_lost", runId: submission.runId, reason });
        await lock.release().catch(() => undefined);
        return;
      }
      const storageTrouble = LittleWorkflowError.is(error) && error.code.startsWith("world.") && !LittleWorkflowError.is(error, "world.event_log_corrupt");
      if (!storageTrouble) {
        // The failure is in the run's log (RunFailed) — or, for a run refused before its log was
        // opened (an invalid version, options no worker can apply, a damaged log), only here: the
        // run is over either way. Releasing it instead would hand the same failure to the next
        // worker forever.
        const failure = {
          message: error instanceof Error ? error.message : String(error),
          ...(error instanceof RunFailedError ? { causeCode: error.causeCode } : LittleWorkflowError.is(error) ? { causeCode: error.code } : {}),
        };
        await queue.finishRun(lock, "failed", failure).then(
          () => emit({ type: "failed", runId: submission.runId, error }),
          (finishError: unknown) => emit({ type: "run_error", runId: submission.runId, error: finishError }),
        );
        return;
      }
      // The storage failed under the run (unreachable past its retries): another try may succeed.
      emit({ type: "run_error", runId: submission.runId, error });
      await lock.release().catch(() => undefined);
    }
  }

  async function pause(milliseconds: number): Promise<void> {
    if (wake.signal.aborted) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, milliseconds);
      function done(): void {
        clearTimeout(timer);
        wake.signal.removeEventListener("abort", done);
        resolve();
      }
      wake.signal.addEventListener("abort", done, { once: true });
    });
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      if (inFlight.size >= concurrency) {
        await Promise.race([...inFlight]);
        continue;
      }
      let claim: RunClaim | undefined;
      try {
        claim = await queue.claimRun({ tools: tools.names, models: Object.keys(models) });
      } catch (error) {
        emit({ type: "claim_error", error });
        await pause(pollEveryMs);
        continue;
      }
      if (claim === undefined) {
        await pause(pollEveryMs);
        continue;
      }
      if (stopping) {
        await claim.lock.release().catch(() => undefined);
        break;
      }
      const running: Promise<void> = execute(claim).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await Promise.allSettled([...inFlight]);
  }

  const stopped = loop();
  return {
    get holder() {
      return holder;
    },
    get inFlight() {
      return inFlight.size;
    },
    stop,
    stopped,
  };
}

function toolRegistryOf(tools: StartWorkerOptions["tools"]): ToolRegistry {
  if (tools === undefined) return createToolRegistry({});
  const candidate = tools as Partial<ToolRegistry>;
  if (typeof candidate.pick === "function" && typeof candidate.has === "function" && Array.isArray(candidate.names)) return tools as ToolRegistry;
  return createToolRegistry(tools as Parameters<typeof createToolRegistry>[0]);
}

function positive(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) throw new InvalidWorkerOptionsError(option, `must be a positive integer, got ${String(value)}`);
  return value;
}
