import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { localWorld, type LocalWorld } from "@little-stack/local-world";
import { CliUsageError } from "./cli-errors.js";

/** The local world `little run` writes to; the folder is created on first use. */
export function openWorldForWriting(options: { dataDir: string; cwd: string }): LocalWorld {
  return localWorld({ dataDir: resolve(options.cwd, options.dataDir) });
}

/**
 * The local world of a command that only reads (events, replay, report, runs). A folder without an
 * event database is refused instead of being created: a mistyped --data-dir must not look like a
 * world with no runs, and reading must not write.
 */
export function openWorldForReading(options: { dataDir: string; cwd: string }): LocalWorld {
  const dataDir = resolve(options.cwd, options.dataDir);
  if (!existsSync(join(dataDir, "events", "events.db"))) {
    throw new CliUsageError(`no Little Workflow data in ${options.dataDir} (no events/events.db) — run "little run" first or pass --data-dir`);
  }
  return localWorld({ dataDir });
}

/** Runs `work` with a world and closes it afterwards, whatever happens. */
export async function withWorld<T>(world: LocalWorld, work: (world: LocalWorld) => Promise<T>): Promise<T> {
  try {
    return await work(world);
  } finally {
    await world.close();
  }
}
