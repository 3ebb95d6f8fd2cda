import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * On resume, the session asked for something different from what the log recorded at the same
 * position. Resuming would silently fork history, so it stops instead.
 */
export class ReplayDivergenceError extends LittleWorkflowError {
  /** The model turn where replay diverged; undefined for a tool call made by code. */
  readonly turn: number | undefined;
  readonly recordedHash: string;
  readonly currentHash: string;

  constructor(options: {
    runId: string;
    sessionId: string;
    turn?: number;
    /** Where, when not a model turn ("code tool call 3"). */
    position?: string;
    what: string;
    recordedHash: string;
    currentHash: string;
  }) {
    const where = options.turn === undefined ? (options.position ?? "an unknown position") : `turn ${options.turn}`;
    super(
      "replay_divergence",
      `Replay of run ${options.runId} (session ${options.sessionId}) diverged at ${where}: the ${options.what} hashes to ${options.currentHash} but ${options.recordedHash} was recorded. ` +
        "The code, prompt, tools or tool results changed since the run was recorded; start a new run instead of resuming this one.",
      { details: { ...options } },
    );
    this.turn = options.turn;
    this.recordedHash = options.recordedHash;
    this.currentHash = options.currentHash;
  }
}

/** The session's manifest differs from the one recorded when it started. */
export class CapabilityDriftError extends LittleWorkflowError {
  readonly storedHash: string;
  readonly currentHash: string;
  readonly diff: readonly string[];

  constructor(options: { runId: string; sessionId: string; storedHash: string; currentHash: string; diff: readonly string[] }) {
    super(
      "capability_drift",
      `Harness session ${options.sessionId} of run ${options.runId} was recorded with manifest ${options.storedHash} but now computes ${options.currentHash}:\n` +
        options.diff.map((line) => `  ${line}`).join("\n") +
        "\nRestore the recorded capabilities to resume, or start a new run.",
      { details: { ...options } },
    );
    this.storedHash = options.storedHash;
    this.currentHash = options.currentHash;
    this.diff = options.diff;
  }
}
