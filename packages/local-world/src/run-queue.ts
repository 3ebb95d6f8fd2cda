import type { JsonObject, JsonValue } from "./json-value.js";
import type { RunLock, World } from "./world.js";

/**
 * What `submitWorkflow` stores for a run that workers will execute: everything a worker on any
 * machine needs besides its own tools and models, which are named here by id only.
 */
export type RunSubmissionInput = {
  readonly runId: string;
  /** The locked workflow version, as `executeWorkflowVersion` takes it: `{ id, hash, lwir, … }`. */
  readonly workflowVersion: JsonObject;
  readonly input: JsonValue;
  /** Tool names the run needs; a worker whose registry lacks one of them never claims it. */
  readonly tools: readonly string[];
  /** Model slot ids the run needs; a worker without one of them never claims it. */
  readonly models: readonly string[];
  /** Per-run runtime options that travel by value (`timeout`, `workflowId`, `memory`, …). */
  readonly options?: JsonObject;
};

export type RunSubmissionState = "queued" | "running" | "finished";

export type RunSubmissionFailure = { readonly message: string; readonly causeCode?: string };

export type RunSubmission = RunSubmissionInput & {
  readonly options: JsonObject;
  /** ISO-8601, the storage's clock. */
  readonly submittedAt: string;
  /** `queued` until first claimed, `running` while held (or lapsed and waiting for a taker), then `finished`. */
  readonly state: RunSubmissionState;
  /** How the run ended, once `finished`. */
  readonly outcome?: "completed" | "failed";
  /** Why, for a run that failed before its log could record it (an invalid version, bad options). */
  readonly failure?: RunSubmissionFailure;
  /** How many times a worker claimed it (1 for a run no worker lost). */
  readonly claims: number;
  /** The current (or last) holder and its lease expiry. */
  readonly holder?: string;
  readonly leaseExpiresAt?: string;
};

/** A claimed run: its submission and the lease the claimer now holds (renewed by the world). */
export type RunClaim = {
  readonly submission: RunSubmission;
  readonly lock: RunLock;
};

/**
 * A queue of runs beside a `World`, for workers on many machines. `postgresWorld()` implements
 * it; `startWorker` from `@little-stack/worker` needs a world that does.
 */
export interface RunQueue {
  /**
   * Enqueues a run. Submitting the same content under the same run id again is a no-op that
   * resolves to the stored submission; different content under an existing id is refused.
   */
  submitRun(input: RunSubmissionInput): Promise<RunSubmission>;

  /**
   * Takes the oldest runnable run whose tools and models are all among the given ones — queued,
   * or running under a lease that lapsed by the storage's clock — together with its lease, in one
   * transaction: two claimers never get the same run, and a claimer never waits on another.
   * Resolves to `undefined` when nothing is runnable.
   */
  claimRun(options: { readonly tools: readonly string[]; readonly models: readonly string[] }): Promise<RunClaim | undefined>;

  /**
   * Marks a claimed run finished and releases its lease, fenced by it: refused with
   * `LeaseLostError` (nothing changed) when the lease is no longer the run's current one.
   * `failure` says why a failed run ended when its log could not record it.
   */
  finishRun(lock: RunLock, outcome: "completed" | "failed", failure?: RunSubmissionFailure): Promise<void>;

  /** A run's submission, or `undefined` when it was never submitted. */
  getSubmission(runId: string): Promise<RunSubmission | undefined>;

  /** Every submission, oldest first, optionally only those in one state. */
  listSubmissions(options?: { readonly state?: RunSubmissionState }): Promise<RunSubmission[]>;
}

/** True when a world also offers the run queue workers claim from. */
export function isRunQueue(world: World): world is World & RunQueue {
  const candidate = world as Partial<RunQueue>;
  return (
    typeof candidate.submitRun === "function" &&
    typeof candidate.claimRun === "function" &&
    typeof candidate.finishRun === "function" &&
    typeof candidate.getSubmission === "function"
  );
}
