import { LittleWorkflowError } from "@little-stack/canonical";

/** An event that cannot be stored: bad type, or a payload that is not plain JSON. */
export class InvalidEventError extends LittleWorkflowError {
  /** Index of the offending event in the batch given to `appendEvents`. */
  readonly index: number;
  /** JSONPath of the offending value inside the payload, when the payload is the problem. */
  readonly path: string | undefined;

  constructor(options: {
    readonly runId: string;
    readonly index: number;
    readonly problem: string;
    readonly path?: string;
    readonly cause?: unknown;
  }) {
    const where = options.path === undefined ? "" : ` at payload ${options.path}`;
    super(
      "world.invalid_event",
      `Cannot append event #${options.index} of run "${options.runId}"${where}: ${options.problem}. Nothing was stored; fix the event and append the batch again.`,
      { cause: options.cause, details: { runId: options.runId, index: options.index, path: options.path } },
    );
    this.index = options.index;
    this.path = options.path;
  }
}

/** The event log is damaged or is not an event log. Nothing was written to it. */
export class EventLogCorruptError extends LittleWorkflowError {
  readonly path: string;
  /** The damaged run, when the damage is in one run's events. */
  readonly runId: string | undefined;
  /** The first sequence found damaged (or missing), when the damage is in one run's events. */
  readonly sequence: number | undefined;

  constructor(path: string, problem: string, cause?: unknown, where?: { readonly runId: string; readonly sequence: number; readonly hint?: string }) {
    const at = where === undefined ? "" : ` at event #${where.sequence} of run "${where.runId}"`;
    const hint =
      where?.hint ??
      (where === undefined
        ? "Restore it from a backup, or move it away to start an empty log (its runs cannot be resumed)."
        : "The run cannot be resumed or replayed from this log: restore the data dir from a backup, or start the work again under a new run id.");
    super("world.event_log_corrupt", `The event log ${path} is corrupt${at}: ${problem}. It was left untouched. ${hint}`, {
      cause,
      details: where === undefined ? { path } : { path, runId: where.runId, sequence: where.sequence },
    });
    this.path = path;
    this.runId = where?.runId;
    this.sequence = where?.sequence;
  }
}

/** A read found a hole or a repeat in a run's sequences: the log's integrity is broken. */
export class EventLogGapError extends LittleWorkflowError {
  constructor(runId: string, expected: number, found: number) {
    super(
      "world.event_log_gap",
      `Run "${runId}" has a gap in its event log: expected sequence ${expected}, found ${found}. The log was modified outside the world; the run cannot be replayed safely.`,
      { details: { runId, expected, found } },
    );
  }
}

/** `listEvents` options of the wrong type or range. */
export class InvalidListEventsOptionsError extends LittleWorkflowError {
  constructor(option: string, problem: string) {
    super("world.invalid_list_options", `listEvents option "${option}" ${problem}.`, { details: { option } });
  }
}

/** SQLite could not complete a read or write of the event log (busy past the timeout, disk full, I/O). */
export class EventLogUnavailableError extends LittleWorkflowError {
  constructor(path: string, operation: string, cause: unknown) {
    const sqliteCode = (cause as { code?: unknown } | null)?.code;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "world.event_log_unavailable",
      `Could not ${operation} in the event log ${path} (${typeof sqliteCode === "string" ? `${sqliteCode}: ` : ""}${reason}). Nothing was stored by this call; check disk space and permissions, and that no other process holds the database for long.`,
      { cause, details: { path, operation, sqliteCode } },
    );
  }
}
