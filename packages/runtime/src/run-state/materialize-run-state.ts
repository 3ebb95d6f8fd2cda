import type { ModelRegistry } from "@little-stack/models";
import type { EventRecord } from "../events/runtime-event-types.js";
import { RunStateFolder } from "./run-state-folder.js";
import type { RunState } from "./run-state.js";

/** Folds a run's events (sequence order, from 1) into its state. Pure. */
export function materializeRunState(
  events: readonly EventRecord[],
  options: { readonly runId?: string; readonly modelRegistry?: ModelRegistry } = {},
): RunState {
  const runId = options.runId ?? events[0]?.runId ?? "";
  const folder = new RunStateFolder({ runId, ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }) });
  for (const event of events) folder.apply(event);
  return folder.snapshot();
}
