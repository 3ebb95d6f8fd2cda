import { LittleWorkflowError } from "@little-stack/canonical";

/** `startWorker` / `submitWorkflow` / `awaitRun` options that cannot work. */
export class InvalidWorkerOptionsError extends LittleWorkflowError {
  constructor(option: string, problem: string) {
    super("worker.invalid_options", `Worker option "${option}" ${problem}.`, { details: { option } });
  }
}

/** The world given to a worker has no run queue (only `postgresWorld()` has one today). */
export class WorldWithoutQueueError extends LittleWorkflowError {
  constructor(operation: string) {
    super(
      "worker.world_without_queue",
      `Cannot ${operation}: this world has no run queue (submitRun/claimRun). Use postgresWorld({ connectionString }) from @little-stack/postgres-world, or run the workflow in-process with runWorkflow.`,
      { details: { operation } },
    );
  }
}

/** `awaitRun` gave up: its signal aborted or its timeout passed before the run finished. */
export class AwaitRunTimeoutError extends LittleWorkflowError {
  constructor(runId: string, why: string) {
    super("worker.await_timeout", `Stopped waiting for run "${runId}" (${why}); the run goes on. Wait again with awaitRun.`, { details: { runId } });
  }
}
