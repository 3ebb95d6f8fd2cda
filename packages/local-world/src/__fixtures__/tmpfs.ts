import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";

/**
 * Runs `work` on a real, small file system: a tmpfs of `size` (`"1m"`, `"24m"`) mounted at
 * `mountPoint` (created), unmounted afterwards whatever happens. Needs root, as CI has.
 */
export async function withTmpfs(mountPoint: string, size: string, work: (mountPoint: string) => Promise<void>): Promise<void> {
  mkdirSync(mountPoint);
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mountPoint]);
  try {
    await work(mountPoint);
  } finally {
    execFileSync("umount", [mountPoint]);
  }
}
