import { isRunQueue, type World } from "@little-stack/local-world";
import { replayRun, type RunState } from "@little-stack/runtime";
import { AwaitRunTimeoutError, InvalidWorkerOptionsError } from "./worker-errors.js";

export type AwaitedRun = {
  readonly runId: string;
  readonly status: "completed" | "failed";
  /** The run's output when completed. */
  readonly output?: unknown;
  /** Why it failed (`causeCode`, message, failed step), when failed. */
  readonly error?: RunState["failure"];
  /** The materialized run state (steps, usage, artifacts), as `little replay` prints it. */
  readonly state: RunState;
};

/**
 * Waits until a run has ended (its log's last event is RunCompleted or RunFailed) and resolves to
 * its outcome — whichever worker ran it, however often it changed hands. Polls the run's summary
 * (one indexed row) every `pollEveryMs`; reads the whole log once, at the end.
 */
export async function awaitRun(
  world: World,
  runId: string,
  options: { readonly pollEveryMs?: number; readonly timeoutMs?: number; readonly signal?: AbortSignal } = {},
): Promise<AwaitedRun> {
  const pollEveryMs = options.pollEveryMs ?? 250;
  if (!Number.isSafeInteger(pollEveryMs) || pollEveryMs < 1) throw new InvalidWorkerOptionsError("pollEveryMs", "must be a positive integer");
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
  for (;;) {
    const summary = await world.getRun(runId);
    if (summary?.lastEventType === "RunCompleted" || summary?.lastEventType === "RunFailed") {
      const state = await replayRun(world, runId);
      const output = state.output !== undefined ? state.output : state.outputRef?.startsWith("art_") ? await world.readArtifactJson(state.outputRef) : undefined;
      return state.status === "completed"
        ? { runId, status: "completed", output, state }
        : { runId, status: "failed", ...(state.failure === undefined ? {} : { error: state.failure }), state };
    }
    const submission = isRunQueue(world) ? await world.getSubmission(runId) : undefined;
    if (summary === undefined && isRunQueue(world) && submission === undefined) {
      throw new InvalidWorkerOptionsError("runId", `names no run of this world (${runId} has no events and was never submitted)`);
    }
    if (submission?.state === "finished" && submission.outcome === "failed") {
      // Refused by the worker before the run's log could say so.
      const state = await replayRun(world, runId);
      return { runId, status: "failed", error: { name: "RunFailedError", message: submission.failure?.message ?? "the run failed", causeCode: (submission.failure?.causeCode ?? "runtime_config_error") as never }, state };
    }
    if (options.signal?.aborted) throw new AwaitRunTimeoutError(runId, "its signal aborted");
    if (Date.now() >= deadline) throw new AwaitRunTimeoutError(runId, `${options.timeoutMs} ms passed`);
    await new Promise((resolve) => setTimeout(resolve, pollEveryMs));
  }
}
