import { LittleWorkflowError } from "@little-stack/canonical";

/** `localWorld()` / `memoryWorld()` options that cannot work. */
export class InvalidWorldOptionsError extends LittleWorkflowError {
  constructor(option: string, problem: string) {
    super("world.invalid_options", `World option "${option}" ${problem}.`, { details: { option } });
  }
}

/** A call on a world after `close()`. */
export class WorldClosedError extends LittleWorkflowError {
  constructor(operation: string) {
    super(
      "world.closed",
      `Cannot ${operation}: this world was closed. Create a new world (localWorld(...)) to use the data dir again.`,
      { details: { operation } },
    );
  }
}

/** The data dir (or a folder inside it) cannot be created or written. */
export class DataDirNotWritableError extends LittleWorkflowError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const reason = describeFileSystemError(cause);
    super(
      "world.data_dir_not_writable",
      `The world's data dir is not writable at ${path} (${reason}). Pass a dataDir the current user can create and write, or fix the permissions.`,
      { cause, details: { path } },
    );
    this.path = path;
  }
}

/** The data dir (or a file the world keeps there) exists but is not what the world needs. */
export class InvalidDataDirError extends LittleWorkflowError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super("world.invalid_data_dir", `The world's data dir cannot be used: ${path} ${problem}. Pass another dataDir, or move that path out of the way.`, {
      details: { path },
    });
    this.path = path;
  }
}

/** A write on a world opened read-only (`localWorld({ readOnly: true })`). */
export class WorldReadOnlyError extends LittleWorkflowError {
  constructor(operation: string) {
    super("world.read_only", `Cannot ${operation}: this world was opened read-only. Open it without readOnly to write.`, { details: { operation } });
  }
}

/**
 * Writing a file of the data dir failed for want of room or because the device failed (ENOSPC,
 * EDQUOT, EIO, EFBIG). The write left nothing behind: its temp file was removed, and what the
 * file held before is unchanged.
 */
export class DataDirWriteError extends LittleWorkflowError {
  readonly path: string;

  constructor(path: string, cause: unknown) {
    super(
      "world.data_dir_write_failed",
      `Could not write ${path} (${describeFileSystemError(cause)}). Nothing of it was stored and what was there is unchanged; free space on that device (or fix it) and try again — a run resumes where it stopped.`,
      { cause, details: { path, code: (cause as { code?: unknown } | null)?.code } },
    );
    this.path = path;
  }
}

/** The named error for a failed write of `path`: full or failing device, or no permission. */
export function fileWriteError(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT" || code === "EIO" || code === "EFBIG") return new DataDirWriteError(path, error);
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return new DataDirNotWritableError(path, error);
  return error;
}

/** A run id, outer-loop id or artifact id that is malformed (and could escape the data dir). */
export class InvalidIdentifierError extends LittleWorkflowError {
  constructor(kind: string, value: unknown, rule: string) {
    super("world.invalid_id", `Invalid ${kind} ${describeValue(value)}: ${rule}.`, {
      details: { kind, value: typeof value === "string" ? value : String(value) },
    });
  }
}

/** An operation that needs an existing run (one with at least one event) got an unknown run id. */
export class UnknownRunError extends LittleWorkflowError {
  readonly runId: string;

  constructor(runId: string, operation: string) {
    super(
      "world.unknown_run",
      `Cannot ${operation}: run "${runId}" has no events in this world. Append the run's first event (RunStarted) before ${operation}, or check the run id and data dir.`,
      { details: { runId, operation } },
    );
    this.runId = runId;
  }
}

/** SQLite did not keep the synchronous level the durability mode requires. */
export class DurabilityNotAppliedError extends LittleWorkflowError {
  constructor(expected: string, actual: string) {
    super(
      "world.durability_not_applied",
      `The event log runs with synchronous=${actual} but the durability mode requires ${expected}; refusing to continue with weaker durability than configured.`,
      { details: { expected, actual } },
    );
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null) return "null";
  return typeof value;
}

export function describeFileSystemError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.startsWith(code) ? `${code}: ${message}` : message;
}
