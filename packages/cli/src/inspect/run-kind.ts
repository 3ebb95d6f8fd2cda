import type { RunState } from "@little-stack/runtime";

/**
 * What a run id in the data dir is, read from its events:
 * - `run`: a workflow run (it has `RunStarted`; compiled in the same run id or not);
 * - `plan`: a compile that locked a version and ran nothing (`plan_workflow` of an orchestrator);
 * - `pipeline`: an orchestrator's run (its log holds the orchestrator's harness session).
 */
export type RunKind = "run" | "plan" | "pipeline";

/** `planned`: a plan run whose version is locked (it never runs steps itself). */
export type RunListingStatus = RunState["status"] | "planned";

/** The kind of a run and its status in that kind's terms (`running` before the liveness check). */
export function runKindOf(events: readonly { readonly type: string; readonly payload: unknown }[], state: RunState): { kind: RunKind; status: RunListingStatus } {
  if (events.some((event) => event.type === "RunStarted")) return { kind: "run", status: state.status };
  const first = events[0];
  if (first?.type === "harness.session.started" && (first.payload as { role?: unknown } | null)?.role === "orchestrator") {
    const sessionId = (first.payload as { sessionId?: unknown }).sessionId;
    const end = events.findLast(
      (event) => (event.type === "harness.session.completed" || event.type === "harness.session.failed") && (event.payload as { sessionId?: unknown }).sessionId === sessionId,
    );
    return { kind: "pipeline", status: end === undefined ? "running" : end.type === "harness.session.completed" ? "completed" : "failed" };
  }
  if (events.some((event) => event.type === "OrchestrationRequested")) {
    if (state.status === "failed") return { kind: "plan", status: "failed" };
    return { kind: "plan", status: events.some((event) => event.type === "WorkflowVersionRegistered") ? "planned" : "running" };
  }
  return { kind: "run", status: state.status };
}
