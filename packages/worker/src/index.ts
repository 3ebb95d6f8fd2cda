// Public surface of @little-stack/worker: an explicit list of named exports.
export { startWorker, type StartWorkerOptions, type Worker, type WorkerEvent } from "./start-worker.js";
export { submitWorkflow, type SubmitWorkflowOptions } from "./submit-workflow.js";
export { awaitRun, type AwaitedRun } from "./await-run.js";
export { worldHeldBy } from "./leased-world.js";
export type { SubmittedRunOptions } from "./run-options.js";
export { AwaitRunTimeoutError, InvalidWorkerOptionsError, WorldWithoutQueueError } from "./worker-errors.js";
