import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { isProcessAlive, processStartTime } from "./process-liveness.js";
import { RunLockedError } from "./run-lock-errors.js";
import type { SqliteEventLog } from "./sqlite-event-log.js";
import type { RunLockOwner } from "./world.js";

/**
 * Run locks arbitrated by SQLite: the `run_locks` row is read and replaced inside one IMMEDIATE
 * transaction, which SQLite serializes across processes, so of any number of racing processes
 * exactly one sees the lock free (or stale) and takes it. `owner.json` under `locks/` mirrors the
 * row for people and tools; the row is the truth.
 */
export type SqliteRunLocks = {
  acquire(runId: string): { owner: RunLockOwner & { readonly fence: number }; recoveredFrom: RunLockOwner | undefined };
  /** Deletes the row when it still carries `token`; true when it did. */
  release(runId: string, token: string): boolean;
  /**
   * True while `fence` is the run's current fence and its lock is held. Call it inside the
   * transaction that appends, so that no acquisition can come between the check and the write.
   */
  holdsFence(runId: string, fence: number): boolean;
};

// Fences outlive their locks (a released lock's row is deleted, its fence must not restart), so
// they have their own table: the run's last fence and the token of the lock that holds it (NULL
// once released).
const fenceTable = `CREATE TABLE IF NOT EXISTS run_fences (
  run_id TEXT PRIMARY KEY,
  fence INTEGER NOT NULL CHECK (fence >= 1),
  token TEXT
);`;

/**
 * Taking and giving back a lock commits without a sync of its own, in strict mode too: a lock
 * belongs to a live process, and no process outlives the OS crash or power loss that could undo
 * an unsynced commit. An acquisition lost that way leaves the lock free (its holder died), a
 * release lost that way leaves a row whose process is gone (recovered like a killed holder's),
 * and a fence lost with its acquisition is handed out again to a run whose earlier holder can no
 * longer write. The WAL is a sequence, so the holder's first synced append syncs the lock row
 * (and the fence) with it: a lock that anything durable was written under is durable itself.
 * This saves two fdatasyncs per lock, four per run (the compile and the run each take one).
 */
const unsynced = { sync: false } as const;

export function sqliteRunLocks(eventLog: SqliteEventLog): SqliteRunLocks {
  const database = eventLog.database;
  eventLog.immediate("create the run fence table", () => database.exec(fenceTable));
  const nextFence = database
    .prepare<[string, string], number>(
      "INSERT INTO run_fences (run_id, fence, token) VALUES (?, 1, ?) ON CONFLICT (run_id) DO UPDATE SET fence = fence + 1, token = excluded.token RETURNING fence",
    )
    .pluck();
  const clearFence = database.prepare("UPDATE run_fences SET token = NULL WHERE run_id = ? AND token = ?");
  const currentFence = database
    .prepare<[string, number], number>("SELECT 1 FROM run_fences WHERE run_id = ? AND fence = ? AND token IS NOT NULL")
    .pluck();
  const select = database.prepare<[string], string>("SELECT owner FROM run_locks WHERE run_id = ?").pluck();
  const upsert = database.prepare("INSERT OR REPLACE INTO run_locks (run_id, token, owner) VALUES (?, ?, ?)");
  const remove = database.prepare("DELETE FROM run_locks WHERE run_id = ? AND token = ?");
  const ownHost = hostname();
  const ownStartTime = processStartTime(process.pid);

  return {
    acquire(runId) {
      return eventLog.immediate("acquire a run lock", () => {
        const heldText = select.get(runId);
        const held = heldText === undefined ? undefined : (JSON.parse(heldText) as RunLockOwner);
        if (held !== undefined) {
          if (held.hostname !== ownHost) {
            throw new RunLockedError(held, "held from another host, whose processes cannot be checked from here");
          }
          if (isProcessAlive(held.pid, held.processStartTime)) {
            throw new RunLockedError(held, held.pid === process.pid ? "held by this same process" : "that process is alive");
          }
        }
        const token = randomBytes(16).toString("hex");
        const owner = {
          runId,
          token,
          fence: nextFence.get(runId, token)!,
          pid: process.pid,
          hostname: ownHost,
          acquiredAt: new Date().toISOString(),
          ...(ownStartTime === undefined ? {} : { processStartTime: ownStartTime }),
        };
        upsert.run(runId, owner.token, JSON.stringify(owner));
        return { owner, recoveredFrom: held };
      }, unsynced);
    },

    release(runId, token) {
      return eventLog.immediate("release a run lock", () => {
        clearFence.run(runId, token);
        return remove.run(runId, token).changes > 0;
      }, unsynced);
    },

    holdsFence(runId, fence) {
      return currentFence.get(runId, fence) === 1;
    },
  };
}
