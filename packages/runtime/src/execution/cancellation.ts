import type { StepFailedPayload } from "../events/runtime-event-types.js";

/**
 * The failure that made a list cancel its other in-flight steps (what `RunFailed` will say);
 * recorded as `cancelledBy` on the StepFailed of each attempt it ended.
 */
export type PrimaryFailure = NonNullable<StepFailedPayload["cancelledBy"]>;

/**
 * Why work was cancelled:
 * - `run`: the run's timeout elapsed or its AbortSignal aborted;
 * - `failure`: another step of the same list failed terminally (fail-fast outside parallel groups);
 * - `halt`: the run cannot go on (an integrity error, a broken log): the work stops as if the
 *   process had died, recording nothing more.
 */
export type CancelReason =
  | { readonly kind: "run"; readonly cause: "timeout" | "cancelled" }
  | { readonly kind: "failure"; readonly primary: PrimaryFailure }
  | { readonly kind: "halt" };

/**
 * A tree of cancellation scopes: the run, each list of steps in it, each step attempt. Cancelling
 * a node cancels everything below it, and the first reason given wins.
 *
 * Children and waiters are kept in sets and called directly, never as `abort` listeners on a
 * shared AbortSignal: a run with dozens of steps in flight would otherwise pile listeners onto
 * one signal (Node warns past 10). Each node has its own AbortSignal — what the harness of a
 * step attempt receives — so whatever the harness attaches to it stays with that attempt.
 *
 * The AbortSignal is made when it is first asked for, already aborted if the node is: making one
 * costs ~8 µs (an EventTarget), a node exists for every list and every step attempt, and most
 * attempts (a trivial tool, a decision) never look at theirs.
 */
export class Cancellation {
  private controller: AbortController | undefined;
  private readonly callbacks = new Set<() => void>();
  private currentReason: CancelReason | undefined;
  private detach: (() => void) | undefined;

  /** Aborts when this node is cancelled. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.currentReason !== undefined) this.controller.abort();
    }
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.currentReason !== undefined;
  }

  get reason(): CancelReason | undefined {
    return this.currentReason;
  }

  /** Cancels this node and every node below it (once; later calls change nothing). */
  cancel(reason: CancelReason): void {
    if (this.currentReason !== undefined) return;
    this.currentReason = reason;
    this.dispose();
    const callbacks = [...this.callbacks];
    this.callbacks.clear();
    for (const callback of callbacks) callback();
    this.controller?.abort();
  }

  /** Calls `callback` once when this node is cancelled (at once when it already is). Returns a remover. */
  onCancel(callback: () => void): () => void {
    if (this.currentReason !== undefined) {
      callback();
      return () => undefined;
    }
    this.callbacks.add(callback);
    return () => this.callbacks.delete(callback);
  }

  /** A node below this one: cancelled with this node's reason. Dispose it when its work ends. */
  child(): Cancellation {
    const child = new Cancellation();
    child.detach = this.onCancel(() => child.cancel(this.currentReason!));
    return child;
  }

  /** Detaches this node from its parent (its work ended: nothing below it needs cancelling). */
  dispose(): void {
    this.detach?.();
    this.detach = undefined;
  }
}
