import type { JsonObject } from "@little-stack/local-world";
import { InvalidWorkerOptionsError } from "./worker-errors.js";

/**
 * The per-run runtime options a submission may carry to whichever worker runs it (by value:
 * tools and models are the worker's own, named by id in the submission).
 */
export type SubmittedRunOptions = {
  /** `"30m"`, `"90s"` or milliseconds, per invocation of the run on a worker. */
  readonly timeout?: string | number;
  /** The workflow's id: its memory store is mounted (see `executeWorkflowVersion`). */
  readonly workflowId?: string;
  /** The workflow's `memory` option. */
  readonly memory?: JsonObject;
  /** Worker skills by path (on the shared data dir) or git URL pinned by commit. */
  readonly workerSkills?: readonly string[];
  readonly parentRunId?: string;
  readonly outerLoopId?: string;
};

const allowed = new Set(["timeout", "workflowId", "memory", "workerSkills", "parentRunId", "outerLoopId"]);

export function checkSubmittedRunOptions(options: unknown): SubmittedRunOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new InvalidWorkerOptionsError("options", "must be an object");
  for (const key of Object.keys(options)) {
    if (!allowed.has(key)) {
      throw new InvalidWorkerOptionsError(`options.${key}`, `is not a run option a worker can apply (allowed: ${[...allowed].join(", ")})`);
    }
  }
  const checked = options as SubmittedRunOptions;
  if (checked.timeout !== undefined && typeof checked.timeout !== "string" && typeof checked.timeout !== "number") {
    throw new InvalidWorkerOptionsError("options.timeout", 'must be a duration like "30m" or milliseconds');
  }
  for (const key of ["workflowId", "parentRunId", "outerLoopId"] as const) {
    if (checked[key] !== undefined && typeof checked[key] !== "string") throw new InvalidWorkerOptionsError(`options.${key}`, "must be a string");
  }
  if (checked.workerSkills !== undefined && (!Array.isArray(checked.workerSkills) || !checked.workerSkills.every((skill) => typeof skill === "string"))) {
    throw new InvalidWorkerOptionsError("options.workerSkills", "must be a list of skill paths or git URLs");
  }
  return checked;
}
