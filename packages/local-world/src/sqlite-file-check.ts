import { closeSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { EventLogCorruptError } from "./event-log-errors.js";
import { describeFileSystemError, InvalidDataDirError } from "./world-errors.js";

const sqliteMagic = Buffer.from("SQLite format 3\0", "latin1");

/**
 * Checks an existing database file before SQLite opens it, because opening a damaged file in WAL
 * mode would already write to it. Detects files that are not SQLite at all and files shorter
 * than their own header says (a truncated copy). The size check only applies when no WAL is
 * pending: with a WAL, a crash during a checkpoint can legitimately leave the header ahead of
 * the file until SQLite's recovery completes it from the WAL.
 */
export function checkDatabaseFile(path: string, options: { readonly mustExist?: boolean } = {}): void {
  const size = fileSize(path);
  if (size === undefined) {
    // SQLite creates the database file before its WAL and never deletes it: a WAL alone means the
    // database file was removed, and opening would silently start an empty log beside it.
    if ((fileSize(`${path}-wal`) ?? 0) > 0) {
      throw new EventLogCorruptError(path, `the database file is missing but its write-ahead log ${path}-wal is there (the file was deleted or moved)`);
    }
    if (options.mustExist === true) throw new InvalidDataDirError(path, "does not exist (no event log there)");
    return;
  }
  if (size === 0) return;
  if (size < 100) throw new EventLogCorruptError(path, `the file is only ${size} bytes, shorter than a SQLite header`);
  const header = Buffer.alloc(100);
  const descriptor = openSync(path, "r");
  try {
    readSync(descriptor, header, 0, 100, 0);
  } finally {
    closeSync(descriptor);
  }
  if (!header.subarray(0, 16).equals(sqliteMagic)) {
    throw new EventLogCorruptError(path, "the file is not a SQLite database (wrong header)");
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
    throw new EventLogCorruptError(path, `the header names an impossible page size (${rawPageSize})`);
  }
  const walSize = fileSize(`${path}-wal`) ?? 0;
  if (walSize > 0) return;
  if (size % pageSize !== 0) {
    throw new EventLogCorruptError(path, `the file is ${size} bytes, not a whole number of ${pageSize}-byte pages (truncated)`);
  }
  const changeCounter = header.readUInt32BE(24);
  const pageCount = header.readUInt32BE(28);
  const versionValidFor = header.readUInt32BE(92);
  // The in-header page count is only authoritative when written by a version that maintains it.
  if (changeCounter === versionValidFor && pageCount > 0 && pageCount * pageSize > size) {
    throw new EventLogCorruptError(
      path,
      `the file is ${size} bytes but its header says ${pageCount} pages of ${pageSize} bytes (${pageCount * pageSize} bytes): it was truncated`,
    );
  }
}

function fileSize(path: string): number | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new InvalidDataDirError(path, "cannot exist: a folder on its path is a file");
    throw new InvalidDataDirError(path, `cannot be read (${describeFileSystemError(error)})`);
  }
  if (!stats.isFile()) throw new InvalidDataDirError(path, `is ${stats.isDirectory() ? "a directory" : "not a regular file"}, where the world keeps its event database file`);
  return stats.size;
}
