import { InvalidWorldOptionsError } from "./world-errors.js";

/**
 * - `strict` (default): every commit is synced to disk before the append returns (the WAL is
 *   fdatasync'ed after each commit), and artifact and manifest files are fsynced. A committed
 *   event survives a process kill, an OS crash and a power loss.
 * - `process`: no sync at commit, no fsync of files. A committed event survives a process kill
 *   (`kill -9`), not an OS crash or power loss: the last commits may be lost, though the log
 *   stays consistent (no torn or half-written events).
 */
export type Durability = "strict" | "process";

/**
 * The SQLite `synchronous` level of every connection (PRAGMA synchronous numbers), and whether the
 * world syncs the WAL itself after each commit. Both modes run SQLite at NORMAL (the WAL is synced
 * at checkpoints): in `strict` the world fdatasyncs the WAL after each commit — what FULL would do
 * inside the commit — but only after it has written the run's commit record, so that a kill
 * during the sync cannot leave a committed batch without its record (see run-heads.ts).
 */
export const synchronousLevel: Record<Durability, { readonly name: string; readonly value: number; readonly syncAfterCommit: boolean }> = {
  strict: { name: "NORMAL", value: 1, syncAfterCommit: true },
  process: { name: "NORMAL", value: 1, syncAfterCommit: false },
};

export function resolveDurability(value: unknown): Durability {
  if (value === undefined) return "strict";
  if (value === "strict" || value === "process") return value;
  throw new InvalidWorldOptionsError("durability", `must be "strict" or "process", got ${JSON.stringify(value) ?? String(value)}`);
}
