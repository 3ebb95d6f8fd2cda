import type { EventEnvelope, World } from "@little-stack/local-world";
import { materializeRunState } from "@little-stack/runtime/run-state";
import { runKindOf } from "./run-kind.js";

/** How often the log is read again while following (the writer is another process). */
export const followPollMs = 200;

/**
 * Tails a run that another process writes, by reading its log read-only every `pollMs`: each new
 * envelope (sequence after the last one seen) goes to `onEvent`, in sequence order, once. Ends
 * when the run has ended in its kind's terms — a workflow run completed or failed, a plan locked
 * or failed, a pipeline's orchestrator session completed or failed. A writer killed mid-run just
 * stops appending; when a process resumes the run, the new events follow the ones seen, so a kill
 * and resume of the writer is invisible here except for the pause. Waits for a run id with no
 * events yet (its writer may not have started).
 */
export async function followRunEvents(options: {
  readonly world: World;
  readonly runId: string;
  readonly onEvent: (event: EventEnvelope) => void;
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}): Promise<void> {
  const { world, runId } = options;
  const seen: EventEnvelope[] = [];
  for (;;) {
    const fresh = await world.listEvents(runId, { afterSequence: seen.length });
    for (const event of fresh) {
      // Sequences are dense: anything else means the log is not what it should be; re-read it.
      if (event.sequence !== seen.length + 1) break;
      seen.push(event);
      options.onEvent(event);
    }
    if (fresh.length > 0 && hasEnded(seen)) return;
    if (options.signal?.aborted === true) return;
    await pause(options.pollMs ?? followPollMs, options.signal);
  }
}

function hasEnded(events: readonly EventEnvelope[]): boolean {
  const { status } = runKindOf(events, materializeRunState(events));
  return status === "completed" || status === "failed" || status === "planned";
}

function pause(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
