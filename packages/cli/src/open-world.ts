import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { LocalWorld } from "@little-stack/local-world";
import { CliUsageError } from "./cli-errors.js";

// The world (and SQLite) is loaded by the commands that open one, not when `little` starts.

/** The local world `little run` writes to; the folder is created on first use. */
export async function openWorldForWriting(options: { dataDir: string; cwd: string }): Promise<LocalWorld> {
  const dataDir = dataDirPath(options);
  const { localWorld } = await import("@little-stack/local-world");
  return localWorld({ dataDir });
}

/**
 * Runs `work` against the local world of a command that only reads (events, replay, report,
 * runs), opened read-only in place: a read-only SQLite connection that sees what a live or killed
 * writer committed (its WAL included), writes nothing, and names the user's own files in any
 * error. Nothing is copied, so nothing is left behind when the command is interrupted.
 *
 * A folder without an event database is refused instead of being created: a mistyped --data-dir
 * must not look like a world with no runs.
 */
export async function withReadOnlyWorld<T>(options: { dataDir: string; cwd: string }, work: (world: LocalWorld) => Promise<T>): Promise<T> {
  const dataDir = dataDirPath(options);
  if (!existsSync(join(dataDir, "events", "events.db")) && !existsSync(join(dataDir, "events", "events.db-wal"))) {
    throw new CliUsageError(`no Little Workflow data in ${options.dataDir} (no events/events.db) — run "little run" first or pass --data-dir`);
  }
  const { localWorld } = await import("@little-stack/local-world");
  return withWorld(localWorld({ dataDir, readOnly: true }), work);
}

/** Runs `work` with a world and closes it afterwards, whatever happens. */
export async function withWorld<T>(world: LocalWorld, work: (world: LocalWorld) => Promise<T>): Promise<T> {
  try {
    return await work(world);
  } finally {
    await world.close();
  }
}

/** `--data-dir` resolved against the working directory; an empty one is refused, not taken for ".". */
function dataDirPath(options: { dataDir: string; cwd: string }): string {
  if (options.dataDir.trim() === "") throw new CliUsageError('--data-dir is empty — pass a folder (default .little-workflow), or "." for the current directory');
  return resolve(options.cwd, options.dataDir);
}
