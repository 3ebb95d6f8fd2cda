import type { World } from "@little-stack/local-world";
import type { ModelRegistry } from "@little-stack/models";
import { materializeRunState } from "./materialize-run-state.js";
import type { RunState } from "./run-state.js";

/**
 * The materialized state of a stored run. Pure: it reads the log and appends nothing, calls no
 * model and no tool. An unknown run id gives a state with `status: "not_started"`.
 */
export async function replayRun(world: World, runId: string, options: { readonly modelRegistry?: ModelRegistry } = {}): Promise<RunState> {
  const events = await world.listEvents(runId);
  return materializeRunState(events, { runId, ...options });
}
