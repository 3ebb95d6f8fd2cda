import { LittleWorkflowError } from "@little-stack/canonical";
import { EventLogUnavailableError } from "@little-stack/local-world";

/** SQLSTATE classes and client errors after which the statement may or may not have committed. */
const connectionStates = new Set(["57P01", "57P02", "57P03", "53300", "08000", "08003", "08006", "08001", "08004"]);

/**
 * True when the failure is the connection's, not the statement's: the database restarted, the
 * socket dropped, the query timed out unanswered. A write that failed this way is ambiguous
 * (it may have committed) and must be resolved by reading back.
 */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (connectionStates.has(code)) return true;
    if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT …
    return false;
  }
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|not queryable|Connection ended/i.test(
    message,
  );
}

export function unavailable(target: string, operation: string, error: unknown): EventLogUnavailableError {
  return new EventLogUnavailableError(target, operation, error);
}

/** The database holds a schema this package cannot use (newer, or not a world's). */
export class PostgresSchemaError extends LittleWorkflowError {
  constructor(schema: string, problem: string) {
    super("world.schema_mismatch", `The PostgreSQL schema "${schema}" ${problem}.`, { details: { schema } });
  }
}

/** The data dir is not the folder the other workers of this database share. */
export class SharedDataDirError extends LittleWorkflowError {
  constructor(dataDir: string, problem: string) {
    super(
      "world.data_dir_not_shared",
      `The data dir ${dataDir} ${problem}. Workers of one database must see the same memory and scratch: mount the shared folder at this path (the same network mount on every machine) and pass it as dataDir.`,
      { details: { dataDir } },
    );
  }
}

/** `submitRun` with different content under a run id that was already submitted. */
export class SubmissionConflictError extends LittleWorkflowError {
  constructor(runId: string) {
    super(
      "world.submission_conflict",
      `Run "${runId}" was already submitted with a different workflow version, input, tools, models or options. A run id names one run: submit under a new run id.`,
      { details: { runId } },
    );
  }
}
