import { closeSync, fdatasyncSync, openSync } from "node:fs";
import Database from "better-sqlite3";
import { EventLogCorruptError, EventLogGapError, EventLogUnavailableError } from "./event-log-errors.js";
import { envelopeOf, eventIdFor, type PreparedEvent } from "./event-envelope.js";
import { recordedAtCheck, verifyStoredEvent } from "./event-verification.js";
import type { ResolvedListEventsOptions } from "./list-events-options.js";
import { isoNow } from "./recorded-at.js";
import { type HeadReading, type RunHead, RunHeads } from "./run-heads.js";
import { checkDatabaseFile } from "./sqlite-file-check.js";
import { synchronousLevel, type Durability } from "./durability.js";
import { preallocateWal } from "./wal-preallocation.js";
import type { EventEnvelope, RunSummary } from "./world.js";
import { DurabilityNotAppliedError, fileWriteError, WorldReadOnlyError } from "./world-errors.js";

/** The SQLite half of `localWorld()`: the event log and the run-lock table, in `events.db`. */
export type SqliteEventLog = {
  readonly path: string;
  readonly database: Database.Database;
  /**
   * Stores the events in one transaction. `durable: false` (see `AppendEventsOptions`): no sync
   * in strict mode, and no commit record — the record is a lower bound of what is on disk, so it
   * waits for the run's next durable append, whose sync covers this batch too.
   */
  append(runId: string, events: readonly PreparedEvent[], options?: { readonly durable?: boolean }): EventEnvelope[];
  list(runId: string, options: ResolvedListEventsOptions): EventEnvelope[];
  hasRun(runId: string): boolean;
  getRun(runId: string): RunSummary | undefined;
  listRuns(): RunSummary[];
  /** Run ids with a commit record (`events/heads/<runId>`), whether or not the log still has their events. */
  recordedRunIds(): string[];
  /** The effective pragmas of this connection. */
  pragmas(): { readonly journalMode: string; readonly synchronous: number };
  /**
   * Runs `work` inside an IMMEDIATE transaction, mapping SQLite failures to named errors. In
   * strict mode the commit is synced unless `sync: false`: for rows whose loss in an OS crash or
   * power loss is harmless (run locks: see sqlite-run-locks.ts).
   */
  immediate<T>(operation: string, work: () => T, options?: { readonly sync?: boolean }): T;
  close(): void;
};

// Dense sequences are enforced by the database itself, not only by this code: the primary key
// forbids a repeat and the trigger forbids a gap, whoever writes to the file.
//
// A rowid table on purpose, not WITHOUT ROWID: there the whole row is the b-tree key, so a large
// payload (a 1 MB LWIR in WorkflowVersionRegistered) spills to overflow pages that SQLite reads in
// full whenever a seek compares against that row — every append to a run whose id sorts next to
// it paid for reading the megabyte (measured: 25 µs → 580 µs per single append). Here the key
// (run_id, sequence) lives in its own small index and payloads are never read to find a row.
//
// row_check is crc32("<event_id> <recorded_at>"): the event id covers the run, sequence, type and
// payload, and row_check covers what the id does not (the time), so every stored byte of a row is
// verified on read. NULL in rows written before it existed.
const eventsTable = `
CREATE TABLE IF NOT EXISTS events (
  run_id TEXT NOT NULL,
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  payload TEXT NOT NULL,
  row_check INTEGER,
  PRIMARY KEY (run_id, sequence)
);`;
const schema = `${eventsTable}
CREATE TRIGGER IF NOT EXISTS events_dense_sequence BEFORE INSERT ON events
WHEN NEW.sequence <> COALESCE((SELECT MAX(sequence) FROM events WHERE run_id = NEW.run_id), 0) + 1
BEGIN
  SELECT RAISE(ABORT, 'event sequences must be dense: expected the next sequence of the run');
END;
CREATE TABLE IF NOT EXISTS world_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS run_locks (
  run_id TEXT PRIMARY KEY,
  token TEXT NOT NULL,
  owner TEXT NOT NULL
);
`;

/** Rows per INSERT statement (7 parameters each, far below SQLite's parameter limit). */
const maxRowsPerStatement = 64;
/** Another writer can win the race for a sequence; give up only if that keeps happening. */
const maxSequenceConflicts = 100;

const legacyEventColumns = ["run_id", "sequence", "event_id", "type", "recorded_at", "payload"];
const expectedEventColumns = [...legacyEventColumns, "row_check"];

export function openSqliteEventLog(options: {
  readonly path: string;
  readonly durability: Durability;
  /** Folder of the per-run commit records (see RunHeads). */
  readonly headsDir: string;
  /** Open a read-only connection: no schema, no write at open, appends refused. */
  readonly readOnly?: boolean;
}): SqliteEventLog {
  const { path, durability } = options;
  const readOnly = options.readOnly === true;
  checkDatabaseFile(path, { mustExist: readOnly });
  const wanted = synchronousLevel[durability];
  let database: Database.Database;
  try {
    database = new Database(path, readOnly ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    throw mapOpenError(path, error);
  }
  let hasRowCheck = true;
  try {
    // Wait for another process's write transaction instead of failing at once.
    database.pragma("busy_timeout = 10000");
    // Read-only checks first: a file that is not our event log must not be switched to WAL.
    hasRowCheck = checkEventColumns(path, database);
    if (!readOnly) {
      const journalMode = database.pragma("journal_mode = WAL", { simple: true });
      if (journalMode !== "wal") throw new EventLogCorruptError(path, `SQLite refused WAL mode (journal_mode=${String(journalMode)})`);
      // better-sqlite3 is built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1: a connection starts at
      // NORMAL in WAL mode unless told otherwise, so the level is set on every connection.
      database.pragma(`synchronous = ${wanted.name}`);
      migrateWithoutRowidEvents(database);
      database.exec(schema);
      // A file from before row checks (the migration above may have added the column already).
      if (!checkEventColumns(path, database)) database.exec("ALTER TABLE events ADD COLUMN row_check INTEGER");
      hasRowCheck = true;
      // One small write at open, then the check: a connection that did not keep the level fails
      // here, before it has stored anything of the caller's.
      database.prepare("INSERT OR REPLACE INTO world_meta (key, value) VALUES ('last_opened_at', ?)").run(new Date().toISOString());
      requireSynchronous(database, wanted);
      // Commits that overwrite the WAL in place sync faster than commits that grow it.
      if (wanted.syncAfterCommit) preallocateWal({ database, walPath: `${path}-wal` });
    } else {
      // Reading the schema reads every page of sqlite_master: damage there shows now, named.
      const tables = database.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'").pluck().get();
      // No events table (a data dir whose first commit is not there, or was lost with its WAL):
      // read it as an empty log — the commit records still tell a lost run apart. A temp table is
      // this connection's own, in memory: nothing is written to the file.
      if (tables === 0) database.exec(eventsTable.replace("CREATE TABLE IF NOT EXISTS events", "CREATE TEMP TABLE events"));
    }
  } catch (error) {
    database.close();
    throw mapOpenError(path, error);
  }
  const heads = new RunHeads(options.headsDir);

  const lastSequence = database.prepare<[string], number | null>("SELECT MAX(sequence) FROM events WHERE run_id = ?").pluck();
  const eventIdAt = database.prepare<[string, number], string>("SELECT event_id FROM events WHERE run_id = ? AND sequence = ?").pluck();
  const insertColumns = "INSERT INTO events (run_id, sequence, event_id, type, recorded_at, payload, row_check) VALUES ";
  const insertStatements = new Map<number, Database.Statement>();
  function insertOf(rows: number): Database.Statement {
    let statement = insertStatements.get(rows);
    if (statement === undefined) {
      statement = database.prepare(insertColumns + new Array(rows).fill("(?, ?, ?, ?, ?, ?, ?)").join(", "));
      insertStatements.set(rows, statement);
    }
    return statement;
  }
  const rowColumns = `sequence, event_id, type, recorded_at, payload, ${hasRowCheck ? "row_check" : "NULL"}`;
  const selectAfter = database
    .prepare<[string, number], StoredRow>(`SELECT ${rowColumns} FROM events WHERE run_id = ? AND sequence > ? ORDER BY sequence`)
    .raw();
  const selectAfterWithPrefix = database
    .prepare<[string, number, string, string], StoredRow>(
      `SELECT ${rowColumns} FROM events WHERE run_id = ? AND sequence > ? AND substr(type, 1, length(?)) = ? ORDER BY sequence`,
    )
    .raw();
  const hasEvents = database.prepare<[string], number>("SELECT 1 FROM events WHERE run_id = ? LIMIT 1").pluck();
  const eventAt = database
    .prepare<[string, number], [string, string]>("SELECT type, recorded_at FROM events WHERE run_id = ? AND sequence = ?")
    .raw();
  // Walks the distinct run ids with one index seek each instead of scanning every event.
  const runIds = database
    .prepare<[], string>(
      `WITH RECURSIVE ids(run_id) AS (
         SELECT MIN(run_id) FROM events
         UNION ALL
         SELECT (SELECT MIN(run_id) FROM events WHERE run_id > ids.run_id) FROM ids WHERE ids.run_id IS NOT NULL
       ) SELECT run_id FROM ids WHERE run_id IS NOT NULL`,
    )
    .pluck();

  let durabilityChecked = false;

  function checkDurabilityAfterFirstAppend(): void {
    durabilityChecked = true;
    if (database.pragma("synchronous", { simple: true }) === wanted.value) return;
    // Not expected after the check at open; set it again rather than run weaker than configured.
    database.pragma(`synchronous = ${wanted.name}`);
    requireSynchronous(database, wanted);
  }

  /**
   * The next sequence of each run this connection has appended to. Only a hint: the database
   * has the last word. If another connection appended meanwhile, the insert collides with the
   * primary key (or the density trigger) and is retried with the sequence read afresh, so the
   * cache saves a read per append without ever producing a gap or a repeat.
   */
  const nextSequences = new Map<string, number>();

  function nextSequenceOf(runId: string): number {
    const cached = nextSequences.get(runId);
    if (cached !== undefined) return cached;
    // The run's first append on this connection: its commit record must agree with the log, or
    // the append would write over a history the log lost (and then record the loss as sound).
    let reading: HeadReading;
    try {
      reading = heads.prepare(runId);
    } catch (error) {
      throw fileWriteError(heads.pathOf(runId), error);
    }
    const last = lastSequence.get(runId) ?? 0;
    requireLogReachesHead(runId, reading, last);
    return last + 1;
  }

  /** Throws when the run's commit record proves events the log no longer has. */
  function requireLogReachesHead(runId: string, reading: HeadReading, last: number, listedId?: (sequence: number) => string | undefined): void {
    if (reading.kind === "absent") return;
    if (reading.kind === "damaged") {
      throw new EventLogCorruptError(path, `the run's commit record ${heads.pathOf(runId)} is damaged (${reading.problem})`, undefined, {
        runId,
        sequence: last + 1,
        hint: "The world cannot tell whether the log is complete, so the run is refused. Restore the data dir from a backup, or start the work again under a new run id.",
      });
    }
    const { head } = reading;
    if (last < head.sequence) throw lostEvents(runId, head, last);
    const stored = listedId?.(head.sequence) ?? eventIdAt.get(runId, head.sequence);
    if (stored !== head.eventId) {
      throw new EventLogCorruptError(
        path,
        `its commit record ${heads.pathOf(runId)} says #${head.sequence} was ${head.eventId}, but the log holds ${stored ?? "nothing"} there: the log is not the one this run committed`,
        undefined,
        { runId, sequence: head.sequence },
      );
    }
  }

  function lostEvents(runId: string, head: RunHead, last: number): EventLogCorruptError {
    const headPath = heads.pathOf(runId);
    const holds = last === 0 ? "has no events of it" : `ends at #${last}`;
    return new EventLogCorruptError(
      path,
      `the run committed events through #${head.sequence} (${head.eventId}, per its commit record ${headPath}) but the log ${holds}: committed events were lost (${path}-wal deleted, truncated or damaged, or ${path} replaced)`,
      undefined,
      {
        runId,
        sequence: last + 1,
        hint: `Resuming would run acknowledged steps again, so the run is refused. Restore events.db and events.db-wal together from a backup; or, to accept that what came after #${last} runs again, delete ${headPath} and resume; or start the work again under a new run id.`,
      },
    );
  }

  /** Commit records of appends made inside a transaction, written once it has committed. */
  const pendingHeads = new Map<string, RunHead>();

  function recordHead(runId: string, head: RunHead): void {
    if (database.inTransaction) pendingHeads.set(runId, head);
    else heads.record(runId, head);
  }

  // The WAL this connection commits to, synced after each commit in strict mode. SQLite keeps
  // the file (same inode) while any connection is open, this one included.
  let walDescriptor: number | undefined;

  /**
   * Makes the last commit durable (strict mode): fdatasync of the WAL, after the commit record.
   * Failing to sync is reported; the events are stored but not known to be on disk.
   */
  function syncCommit(operation: string): void {
    if (!wanted.syncAfterCommit) return;
    try {
      walDescriptor ??= openSync(`${path}-wal`, "r");
      fdatasyncSync(walDescriptor);
    } catch (error) {
      throw new EventLogUnavailableError(path, `${operation} (syncing ${path}-wal to disk)`, error);
    }
  }

  function insertRows(runId: string, events: readonly PreparedEvent[], first: number, recordedAt: string): string[] {
    const eventIds: string[] = new Array(events.length);
    const chunk = Math.min(events.length, maxRowsPerStatement);
    const parameters: unknown[] = new Array(chunk * 7);
    for (let start = 0; start < events.length; start += chunk) {
      const rows = Math.min(chunk, events.length - start);
      if (rows !== chunk) parameters.length = rows * 7;
      for (let row = 0; row < rows; row += 1) {
        const event = events[start + row]!;
        const sequence = first + start + row;
        const eventId = eventIdFor({ runId, sequence, type: event.type, payloadJson: event.payloadJson });
        eventIds[start + row] = eventId;
        const offset = row * 7;
        parameters[offset] = runId;
        parameters[offset + 1] = sequence;
        parameters[offset + 2] = eventId;
        parameters[offset + 3] = event.type;
        parameters[offset + 4] = recordedAt;
        parameters[offset + 5] = event.payloadJson;
        parameters[offset + 6] = recordedAtCheck(eventId, recordedAt);
      }
      insertOf(rows).run(parameters);
    }
    return eventIds;
  }

  // A batch that fits one INSERT statement is atomic on its own (one autocommit statement, which
  // takes the write lock before it reads); larger batches need an explicit transaction.
  const insertLargeBatch = database.transaction(insertRows);

  function appendOnce(runId: string, events: readonly PreparedEvent[], recordedAt: string): { first: number; eventIds: string[] } {
    const first = nextSequenceOf(runId);
    const eventIds =
      events.length <= maxRowsPerStatement
        ? insertRows(runId, events, first, recordedAt)
        : insertLargeBatch.immediate(runId, events, first, recordedAt);
    return { first, eventIds };
  }

  function guard<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw mapRuntimeError(path, operation, error);
    }
  }

  function summaryOf(runId: string, checkHead: boolean): RunSummary | undefined {
    // Read before the log, so a commit racing this read can only make the log longer than it.
    const reading = checkHead ? heads.read(runId) : undefined;
    const count = lastSequence.get(runId);
    if (reading !== undefined) requireLogReachesHead(runId, reading, count ?? 0);
    if (count === null || count === undefined) return undefined;
    const first = eventAt.get(runId, 1);
    const last = eventAt.get(runId, count);
    if (first === undefined || last === undefined) throw new EventLogGapError(runId, 1, count);
    return {
      runId,
      eventCount: count,
      firstEventType: first[0],
      firstRecordedAt: first[1],
      lastEventType: last[0],
      lastRecordedAt: last[1],
    };
  }

  return {
    path,
    database,

    append(runId, events, appendOptions) {
      if (readOnly) throw new WorldReadOnlyError("append events");
      if (events.length === 0) return [];
      const recordedAt = isoNow();
      let stored: { first: number; eventIds: string[] };
      for (let attempt = 1; ; attempt += 1) {
        try {
          stored = appendOnce(runId, events, recordedAt);
          break;
        } catch (error) {
          nextSequences.delete(runId);
          if (isSequenceConflict(error) && attempt < maxSequenceConflicts) continue;
          throw mapRuntimeError(path, "append events", error);
        }
      }
      nextSequences.set(runId, stored.first + events.length);
      const durable = appendOptions?.durable !== false;
      // A batch that may be lost is not recorded: an OS crash could keep the record and lose the
      // WAL frames it names, and the log would then read as damaged.
      if (durable) recordHead(runId, { sequence: stored.first + events.length - 1, eventId: stored.eventIds[events.length - 1]! });
      // Inside a caller's transaction the sync waits for its commit (see immediate).
      if (durable && !database.inTransaction) syncCommit("append events");
      if (!durabilityChecked) checkDurabilityAfterFirstAppend();
      const envelopes: EventEnvelope[] = new Array(events.length);
      for (let index = 0; index < events.length; index += 1) {
        const event = events[index]!;
        envelopes[index] = envelopeOf({
          eventId: stored.eventIds[index]!,
          runId,
          sequence: stored.first + index,
          type: event.type,
          recordedAt,
          payloadJson: event.payloadJson,
        });
      }
      return envelopes;
    },

    list(runId, listOptions) {
      // The commit record is read before the log (see summaryOf).
      const reading = heads.read(runId);
      const rows = guard("list events", () =>
        listOptions.typePrefix === undefined
          ? selectAfter.all(runId, listOptions.afterSequence)
          : selectAfterWithPrefix.all(runId, listOptions.afterSequence, listOptions.typePrefix, listOptions.typePrefix),
      );
      const envelopes: EventEnvelope[] = new Array(rows.length);
      for (let index = 0; index < rows.length; index += 1) {
        const row = rows[index]!;
        const sequence = row[0];
        // Without a type filter the rows must be exactly afterSequence+1, +2, …: anything else
        // means the file was edited behind the world's back.
        if (listOptions.typePrefix === undefined && sequence !== listOptions.afterSequence + index + 1) {
          throw new EventLogGapError(runId, listOptions.afterSequence + index + 1, sequence);
        }
        envelopes[index] = verifyStoredEvent({ path, runId, row });
      }
      if (reading.kind !== "absent") {
        const complete = listOptions.typePrefix === undefined && envelopes.length > 0;
        const last = complete ? envelopes.at(-1)!.sequence : guard("list events", () => lastSequence.get(runId) ?? 0);
        // The listed (and verified) events answer for the head's own id when they include it.
        const listedId = (sequence: number): string | undefined =>
          complete && sequence > listOptions.afterSequence ? envelopes[sequence - listOptions.afterSequence - 1]?.eventId : undefined;
        guard("list events", () => requireLogReachesHead(runId, reading, last, listedId));
      }
      return envelopes;
    },

    hasRun(runId) {
      return guard("look up a run", () => hasEvents.get(runId) !== undefined);
    },

    getRun(runId) {
      return guard("read a run summary", () => summaryOf(runId, true));
    },

    listRuns() {
      return guard("list runs", () => {
        const summaries = runIds.all().map((runId) => summaryOf(runId, false)!);
        return summaries.sort(
          (left, right) => compare(left.firstRecordedAt, right.firstRecordedAt) || compare(left.runId, right.runId),
        );
      });
    },

    pragmas() {
      return {
        journalMode: String(database.pragma("journal_mode", { simple: true })),
        synchronous: Number(database.pragma("synchronous", { simple: true })),
      };
    },

    recordedRunIds() {
      return heads.runIds((name) => runIdPattern.test(name));
    },

    immediate(operation, work, options) {
      if (readOnly) throw new WorldReadOnlyError(operation);
      let result: ReturnType<typeof work>;
      try {
        result = guard(operation, () => database.transaction(work).immediate());
      } catch (error) {
        pendingHeads.clear();
        throw error;
      }
      // Only now are the appends made inside the transaction committed.
      if (!database.inTransaction) {
        for (const [runId, head] of pendingHeads) heads.record(runId, head);
        pendingHeads.clear();
        if (options?.sync !== false) syncCommit(operation);
      }
      return result;
    },

    close() {
      heads.close();
      if (walDescriptor !== undefined) closeSync(walDescriptor);
      walDescriptor = undefined;
      if (database.open) database.close();
    },
  };
}

/**
 * Event logs written before the events table became a rowid table (see `eventsTable`) are
 * rewritten once, in one IMMEDIATE transaction: either the new table holds every row or the file
 * is as it was. Rows are copied verbatim, so ids, sequences and payload texts are unchanged.
 */
function migrateWithoutRowidEvents(database: Database.Database): void {
  const isWithoutRowid = (): boolean => {
    const sql = database.prepare<[], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'").pluck().get();
    return sql !== undefined && /\bWITHOUT\s+ROWID\b/i.test(sql);
  };
  if (!isWithoutRowid()) return;
  database.transaction(() => {
    // Another process may have migrated it while this one waited for the write lock.
    if (!isWithoutRowid()) return;
    database.exec(`ALTER TABLE events RENAME TO events_without_rowid;`);
    database.exec(eventsTable);
    database.exec(`INSERT INTO events (run_id, sequence, event_id, type, recorded_at, payload)
      SELECT run_id, sequence, event_id, type, recorded_at, payload FROM events_without_rowid ORDER BY run_id, sequence;
      DROP TABLE events_without_rowid;`);
  }).immediate();
}

function requireSynchronous(database: Database.Database, wanted: { readonly name: string; readonly value: number }): void {
  const actual = database.pragma("synchronous", { simple: true });
  if (actual !== wanted.value) throw new DurabilityNotAppliedError(wanted.name, String(actual));
}

/** Throws unless `events` is absent or an event log's table; true when it has `row_check` (or is absent). */
function checkEventColumns(path: string, database: Database.Database): boolean {
  const columns = database
    .prepare<[], string>("SELECT name FROM pragma_table_info('events')")
    .pluck()
    .all();
  if (columns.length === 0 || columns.join(",") === expectedEventColumns.join(",")) return true;
  if (columns.join(",") === legacyEventColumns.join(",")) return false;
  throw new EventLogCorruptError(path, `its events table has columns (${columns.join(", ")}), not an event log's`);
}

/** A stored row as listed: sequence, event_id, type, recorded_at, payload, row_check. */
export type StoredRow = [number, string, string, string, string, number | null];

/** The names a run id may have (identifiers.ts): a head file named otherwise is not a run's. */
const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The insert lost the race for its sequence to another connection (primary key or density trigger). */
function isSequenceConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_TRIGGER";
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}

function mapOpenError(path: string, error: unknown): unknown {
  if (error instanceof EventLogCorruptError || error instanceof DurabilityNotAppliedError) return error;
  if (isCorruption(error)) return new EventLogCorruptError(path, (error as Error).message, error);
  if ((error as { code?: unknown } | null)?.code === undefined) return error;
  return new EventLogUnavailableError(path, "open the database", error);
}

function mapRuntimeError(path: string, operation: string, error: unknown): unknown {
  if (isCorruption(error)) return new EventLogCorruptError(path, (error as Error).message, error);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_")) return new EventLogUnavailableError(path, operation, error);
  return error;
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
