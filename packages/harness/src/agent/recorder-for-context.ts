import type { HarnessContext } from "../contract/harness.js";
import { createHarnessEventRecorder, type HarnessEventRecorder } from "../events/harness-event-recorder.js";

/**
 * The recorder a harness should write through for a context: the context's own recorder when the
 * runtime gave one, else a validating recorder over `ctx.durability` that reports to `ctx.trace`.
 */
export function recorderForContext(ctx: Pick<HarnessContext, "recorder" | "durability" | "trace">): HarnessEventRecorder {
  if (ctx.recorder !== undefined) return ctx.recorder;
  const trace = ctx.trace;
  return createHarnessEventRecorder({ sink: ctx.durability, ...(trace === undefined ? {} : { onAppended: (events) => trace.onEvents(events) }) });
}
