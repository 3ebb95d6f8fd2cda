import { randomBytes } from "node:crypto";
import { renameSync, unlinkSync, writeFileSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileWriteError } from "./world-errors.js";

/**
 * Replaces `path` with `data` so that a reader (or a restart after a kill) sees either the old
 * file or the new one, whole: write a temp file in the same folder, fsync it, rename it over the
 * target, fsync the folder so the rename itself is durable. With `sync: false` (durability
 * "process") the fsyncs are skipped: the rename is still atomic against a process kill.
 */
export async function writeFileDurably(options: {
  readonly path: string;
  readonly data: Uint8Array | string;
  readonly sync: boolean;
}): Promise<void> {
  const folder = dirname(options.path);
  const temporary = join(folder, `.tmp-${process.pid}-${randomBytes(6).toString("hex")}-${basename(options.path)}`);
  const handle = await open(temporary, "wx", 0o644).catch((error: unknown) => {
    throw fileWriteError(options.path, error);
  });
  try {
    try {
      await handle.writeFile(options.data);
      if (options.sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, options.path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw fileWriteError(options.path, error);
  }
  if (options.sync) await syncFolder(folder).catch((error: unknown) => {
    throw fileWriteError(folder, error);
  });
}

/** fsync of a directory makes renames and unlinks inside it durable. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * `writeFileDurably` without the fsyncs, synchronously: for small files that must never be seen
 * half-written but need not survive a machine crash (the lock mirror). Synchronous because each
 * asynchronous step is a round trip to the file system thread pool, several per run.
 */
export function writeFileAtomicallySync(path: string, data: string): void {
  const temporary = join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString("hex")}-${basename(path)}`);
  try {
    writeFileSync(temporary, data, { flag: "wx", mode: 0o644 });
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never created, or already renamed.
    }
    throw fileWriteError(path, error);
  }
}
