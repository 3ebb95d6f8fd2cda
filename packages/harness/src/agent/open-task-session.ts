import type { HarnessContext, HarnessTask } from "../contract/harness.js";
import { requireManifest, sessionKeyFor, stepPathOf } from "../contract/session-identity.js";
import { openHarnessSession, type HarnessSession } from "./harness-session.js";
import { recorderForContext } from "./recorder-for-context.js";

/**
 * Opens (or, on resume, reopens) the durable session of a task from the context the runtime
 * handed the harness: its recorder, scope, session key, manifest and step path. What a custom
 * harness calls before recording anything.
 */
export function openTaskSession(task: HarnessTask, ctx: HarnessContext): Promise<HarnessSession> {
  const withStepPath = task.kind === "execute_step" || task.kind === "fix_step";
  return openHarnessSession({
    recorder: recorderForContext(ctx),
    scope: ctx.scope,
    sessionKey: sessionKeyFor(task, ctx),
    task: { kind: task.kind },
    manifest: requireManifest(task, ctx),
    ...(withStepPath ? { stepPath: stepPathOf(task, ctx) } : {}),
  });
}
