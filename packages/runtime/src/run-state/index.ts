// @little-stack/runtime/run-state: folding a run's events into its state, without the executor.
// For readers that start often and execute nothing (`little runs`, `replay`, `report`, `events
// --follow`): importing it loads the folder and its pricing tables, not the harness or the AI SDK.
export { materializeRunState } from "./materialize-run-state.js";
export { replayRun } from "./replay-run.js";
export { RunStateFolder, type RunStateFolderOptions } from "./run-state-folder.js";
