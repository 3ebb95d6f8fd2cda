import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, statfsSync, writeSync } from "node:fs";
import type Database from "better-sqlite3";

/** Frames the WAL holds beyond the auto-checkpoint threshold before SQLite wraps it (one commit's worth, generously). */
const slackFrames = 64;
/** Zeros are written in pieces of this size (one buffer, reused). */
const chunkBytes = 256 * 1024;
/** The zeros must leave at least this many times their size free: a nearly full disk keeps its space for data. */
const freeSpaceFactor = 16;

/**
 * Zero-fills the WAL ahead of SQLite, once per open in strict mode, to the size it reaches
 * before the auto-checkpoint lets it wrap: `(wal_autocheckpoint + slack)` frames. A commit then
 * overwrites blocks that exist on disk already, so its fdatasync flushes data only; a commit
 * that grows the file makes the file system commit its journal too (a new size and new blocks),
 * which on ext4 cost ~100 µs more per commit (apps/bench: `wal-preallocation`). Log-structured
 * databases pre-size their log segments for the same reason.
 *
 * Safe for SQLite: it never reads past the last valid frame — recovery stops at the first frame
 * whose salt and checksum do not match, and a zero frame matches nothing — and a WAL that wrapped
 * keeps its size (no `journal_size_limit` is set). The zeros are written inside an IMMEDIATE
 * transaction, so no other connection (in this process or another) is appending frames at the
 * end of the file meanwhile, and only from the file's current end: no frame is ever touched.
 *
 * Best effort: an optimization, never a reason to refuse a data dir or to take a nearly full
 * disk's last space. It is skipped unless the file system has 16 times the zeros' size free,
 * and a write that fails all the same is undone (the file cut back to its size before).
 */
export function preallocateWal(options: { readonly database: Database.Database; readonly walPath: string }): void {
  const { database, walPath } = options;
  const pageSize = Number(database.pragma("page_size", { simple: true }));
  const checkpointPages = Number(database.pragma("wal_autocheckpoint", { simple: true }));
  const frames = (checkpointPages > 0 ? checkpointPages : 1000) + slackFrames;
  const targetBytes = 32 + frames * (24 + pageSize);
  try {
    database
      .transaction(() => {
        const descriptor = openSync(walPath, "r+");
        try {
          const initialSize = fstatSync(descriptor).size;
          if (initialSize >= targetBytes || !hasRoomFor(walPath, targetBytes - initialSize)) return;
          try {
            const zeros = Buffer.alloc(Math.min(chunkBytes, targetBytes - initialSize));
            for (let size = initialSize; size < targetBytes; ) size += writeSync(descriptor, zeros, 0, Math.min(zeros.length, targetBytes - size), size);
            // The new size and blocks are made durable now, once, instead of by the first commits.
            fdatasyncSync(descriptor);
          } catch {
            // No room after all (another writer took it): give the space back, frames untouched.
            ftruncateSync(descriptor, initialSize);
          }
        } finally {
          closeSync(descriptor);
        }
      })
      .immediate();
  } catch {
    // See above: the log is correct without it.
  }
}

function hasRoomFor(walPath: string, bytes: number): boolean {
  const stats = statfsSync(walPath);
  return stats.bavail * stats.bsize >= freeSpaceFactor * bytes;
}
