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
  acquire(runId: string): { owner: RunLockOwner; recoveredFrom: RunLockOwner | undefined };
  /** Deletes the row when it still carries `token`; true when it did. */
  release(runId: string, token: string): boolean;
};

export function sqliteRunLocks(eventLog: SqliteEventLog): SqliteRunLocks {
  const database = eventLog.database;
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
        const owner: RunLockOwner = {
          runId,
          token: randomBytes(16).toString("hex"),
          pid: process.pid,
          hostname: ownHost,
          acquiredAt: new Date().toISOString(),
          ...(ownStartTime === undefined ? {} : { processStartTime: ownStartTime }),
        };
        upsert.run(runId, owner.token, JSON.stringify(owner));
        return { owner, recoveredFrom: held };
      });
    },

    release(runId, token) {
      return eventLog.immediate("release a run lock", () => remove.run(runId, token).changes > 0);
    },
  };
}
