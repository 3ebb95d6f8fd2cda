import type { HarnessContext, HarnessTask } from "./harness.js";
import { HarnessContextError } from "./harness-context-error.js";
import type { HarnessManifest } from "./manifests.js";

/**
 * Who a task's durable session is, read off its context: what a durable harness passes to
 * `openHarnessSession` so that a resumed run reopens the same session.
 */

/**
 * The session key of a task: `ctx.sessionKey` when the context gives one (the runtime does:
 * `step:<stepPath>@attempt_<n>`), else `plan`, `orchestrate`, `step:<stepPath>@attempt_1` or
 * `fix:<stepPath>@attempt_1`.
 */
export function sessionKeyFor(task: HarnessTask, ctx: Pick<HarnessContext, "sessionKey" | "stepPath">): string {
  if (ctx.sessionKey !== undefined) return ctx.sessionKey;
  switch (task.kind) {
    case "plan":
      return "plan";
    case "orchestrate":
      return "orchestrate";
    case "execute_step":
      return `step:${task.stepContext.stepPath}@attempt_1`;
    case "fix_step":
      return `fix:${stepPathOf(task, ctx)}@attempt_1`;
  }
}

/** The step path a task works for: `stepContext.stepPath`, else `ctx.stepPath`, else the step id (fix_step) or the task kind. */
export function stepPathOf(task: HarnessTask, ctx: Pick<HarnessContext, "stepPath">): string {
  if (task.kind === "execute_step") return task.stepContext.stepPath;
  if (ctx.stepPath !== undefined) return ctx.stepPath;
  return task.kind === "fix_step" ? task.step.id : task.kind;
}

/** The session's manifest, or a `HarnessContextError` naming the manifest the task needs. */
export function requireManifest(task: HarnessTask, ctx: Pick<HarnessContext, "manifest">): HarnessManifest {
  if (ctx.manifest !== undefined) return ctx.manifest;
  const which = { plan: "PlannerManifest", orchestrate: "OrchestratorManifest", execute_step: "WorkerManifest", fix_step: "FixerManifest" }[task.kind];
  throw new HarnessContextError({
    task: task.kind,
    missing: "manifest",
    hint: `Pass the session's ${which} as ctx.manifest (the runtime and the compiler compute it); it is recorded in harness.session.started and compared on resume.`,
  });
}
