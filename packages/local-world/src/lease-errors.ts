import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * An append named a fence that is no longer the run's current one: the lock it came from was
 * released, lapsed, or taken over by another holder. Nothing of the batch was stored. The
 * holder must stop working on the run (its lock's `signal` is aborted with this error).
 */
export class LeaseLostError extends LittleWorkflowError {
  readonly runId: string;
  readonly fence: number;

  constructor(options: { readonly runId: string; readonly fence: number; readonly reason: string; readonly cause?: unknown }) {
    super(
      "world.lease_lost",
      `Run "${options.runId}" is no longer held with fence ${options.fence} (${options.reason}). Nothing was stored; this holder must stop working on the run — another holder may own it now.`,
      { cause: options.cause, details: { runId: options.runId, fence: options.fence, reason: options.reason } },
    );
    this.runId = options.runId;
    this.fence = options.fence;
  }
}

/** `appendEvents(runId, events, { fence })` with a fence that is not a positive safe integer. */
export class InvalidFenceError extends LittleWorkflowError {
  constructor(value: unknown) {
    super(
      "world.invalid_fence",
      `appendEvents option "fence" must be a positive safe integer (the fence of a held RunLock), got ${typeof value === "number" ? String(value) : typeof value}. Nothing was stored.`,
      { details: { fence: typeof value === "number" ? value : String(value) } },
    );
  }
}

/** The fence of `appendEvents` options, checked; `undefined` for an unfenced append. */
export function requireFence(options: { readonly fence?: unknown } | undefined): number | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== "object") throw new InvalidFenceError(options);
  const { fence } = options;
  if (fence === undefined) return undefined;
  if (typeof fence !== "number" || !Number.isSafeInteger(fence) || fence < 1) throw new InvalidFenceError(fence);
  return fence;
}
