import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * Whether a live process on this host holds the run's lock, read from the lock's owner.json
 * mirror (reading only; the world's lock itself is not touched). A run whose log says running but
 * whose holder is gone was interrupted (killed): `little run --run-id` resumes it.
 */
export function runLockIsLive(options: { locksDir: string; runId: string }): boolean {
  let owner: { pid?: unknown; hostname?: unknown };
  try {
    owner = JSON.parse(readFileSync(join(options.locksDir, options.runId, "owner.json"), "utf8")) as typeof owner;
  } catch {
    return false;
  }
  if (typeof owner.pid !== "number") return false;
  if (owner.hostname !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
