import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "./process-liveness.js";

/** `writeFileDurably`'s temp names: `.tmp-<writer pid>-<random>-<target name>`. */
const tempFilePattern = /^\.tmp-(\d+)-[0-9a-f]+-/;

/**
 * Deletes the temp files a killed writer left behind in `folders` (a kill between creating a temp
 * file and renaming it over its target). Only files whose writer process is gone: a live process —
 * this one included, which may have another world open on the same data dir — may be about to
 * rename its file. Never touches a file that is not a temp file; missing folders are skipped.
 * Returns how many files were removed.
 */
export function removeStaleTempFiles(folders: readonly string[]): number {
  let removed = 0;
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const writer = tempFilePattern.exec(name)?.[1];
      if (writer === undefined) continue;
      const pid = Number(writer);
      if (pid === process.pid || isProcessAlive(pid, undefined)) continue;
      try {
        unlinkSync(join(folder, name));
        removed += 1;
      } catch {
        // Gone already (another opener cleaned it) or not ours to remove: leave it.
      }
    }
  }
  return removed;
}
