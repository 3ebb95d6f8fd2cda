import type { DeferredEventList } from "@little-stack/local-world";
import { RunLogCorruptError } from "../errors/run-integrity-errors.js";
import type { EventRecord } from "../events/runtime-event-types.js";

/**
 * A run's events for its result: already in memory (`events`), or read from the world the first
 * time they are asked for (`read`, which throws the world's integrity errors for a damaged log).
 */
export type RunHistory = { readonly events: readonly EventRecord[] } | { readonly read: () => readonly EventRecord[] };

/**
 * The log as it was when a result was built, read later through `deferred`: as long as it was
 * then (a later append is not that result's) and still holding the `anchors` — events the result
 * was read from, the last of them the log's last event then. A log that lost or replaced any of
 * them since is refused with `RunLogCorruptError`.
 */
export function historyUpTo(options: { readonly runId: string; readonly deferred: DeferredEventList; readonly anchors: readonly EventRecord[] }): readonly EventRecord[] {
  const { runId, anchors } = options;
  const last = anchors.at(-1)!;
  const read = options.deferred.read() as readonly EventRecord[];
  const events = read.length > last.sequence ? read.slice(0, last.sequence) : read;
  if (events.length !== last.sequence || anchors.some((anchor) => events[anchor.sequence - 1]?.eventId !== anchor.eventId)) {
    throw new RunLogCorruptError({
      runId,
      sequence: Math.min(events.length + 1, last.sequence),
      problem: `the log no longer holds the history the run's result was read from (${last.sequence} events ending in ${last.eventId}; it now has ${read.length})`,
    });
  }
  return events;
}
