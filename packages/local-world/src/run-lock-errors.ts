import { LittleWorkflowError } from "@little-stack/canonical";
import type { RunLockOwner } from "./world.js";

/** Another live holder has the run lock: a second writer for one run is refused. */
export class RunLockedError extends LittleWorkflowError {
  readonly runId: string;
  readonly owner: RunLockOwner;

  constructor(owner: RunLockOwner, reason: string) {
    super(
      "world.run_locked",
      `Run "${owner.runId}" is locked by process ${owner.pid} on ${owner.hostname} since ${owner.acquiredAt} (${reason}). Only one writer may execute a run: wait for that process to finish or stop it; a lock whose process has exited is recovered automatically.`,
      { details: { runId: owner.runId, pid: owner.pid, hostname: owner.hostname, acquiredAt: owner.acquiredAt } },
    );
    this.runId = owner.runId;
    this.owner = owner;
  }
}
