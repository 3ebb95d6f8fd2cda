import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { localWorld, type LocalWorld } from "@little-stack/local-world";
import { CliUsageError } from "./cli-errors.js";

/** The local world `little run` writes to; the folder is created on first use. */
export function openWorldForWriting(options: { dataDir: string; cwd: string }): LocalWorld {
  return localWorld({ dataDir: resolve(options.cwd, options.dataDir) });
}

/**
 * Runs `work` against a read-only view of the local world of a command that only reads (events,
 * replay, report, runs). A folder without an event database is refused instead of being created:
 * a mistyped --data-dir must not look like a world with no runs.
 *
 * The view is a private copy of the event database (and its WAL, if a writer left one) in a
 * temporary folder: opening a localWorld records `last_opened_at` in the database and may
 * checkpoint the WAL, and reading must leave every file of the data dir byte-for-byte as it was.
 * Only events are read through it (the read commands need no artifact).
 */
export async function withReadOnlyWorld<T>(options: { dataDir: string; cwd: string }, work: (world: LocalWorld) => Promise<T>): Promise<T> {
  const dataDir = resolve(options.cwd, options.dataDir);
  const eventsDb = join(dataDir, "events", "events.db");
  if (!existsSync(eventsDb)) {
    throw new CliUsageError(`no Little Workflow data in ${options.dataDir} (no events/events.db) — run "little run" first or pass --data-dir`);
  }
  const copyDir = mkdtempSync(join(tmpdir(), "little-read-"));
  try {
    mkdirSync(join(copyDir, "events"));
    copyFileSync(eventsDb, join(copyDir, "events", "events.db"));
    if (existsSync(`${eventsDb}-wal`)) copyFileSync(`${eventsDb}-wal`, join(copyDir, "events", "events.db-wal"));
    return await withWorld(localWorld({ dataDir: copyDir }), work);
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }
}

/** Runs `work` with a world and closes it afterwards, whatever happens. */
export async function withWorld<T>(world: LocalWorld, work: (world: LocalWorld) => Promise<T>): Promise<T> {
  try {
    return await work(world);
  } finally {
    await world.close();
  }
}
