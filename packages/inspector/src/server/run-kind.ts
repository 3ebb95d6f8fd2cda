import type { EventEnvelope } from "@little-stack/local-world";
import type { RunState } from "@little-stack/runtime";

/** What a run id is, as the inspector shows it: a workflow run, a plan (compile only) or a pipeline. */
export type InspectedRunKind = "run" | "plan" | "pipeline";

export type InspectedRunStatus = "running" | "completed" | "failed" | "planned" | "not_started";

/**
 * Kind and status from the events: a pipeline's log starts with the orchestrator's session and
 * ends with that session; a plan run has `OrchestrationRequested` and no `RunStarted` and ends
 * when its version is registered; everything else is a workflow run with the run state's status.
 */
export function inspectedKindOf(events: readonly EventEnvelope[], state: RunState): { readonly kind: InspectedRunKind; readonly status: InspectedRunStatus } {
  const first = events[0];
  const firstPayload = (first?.payload ?? {}) as { role?: unknown; sessionId?: unknown };
  if (first?.type === "harness.session.started" && firstPayload.role === "orchestrator") {
    const end = events.findLast((event) => (event.type === "harness.session.completed" || event.type === "harness.session.failed") && (event.payload as { sessionId?: unknown }).sessionId === firstPayload.sessionId);
    return { kind: "pipeline", status: end === undefined ? "running" : end.type === "harness.session.completed" ? "completed" : "failed" };
  }
  const started = events.some((event) => event.type === "RunStarted");
  if (!started && events.some((event) => event.type === "OrchestrationRequested")) {
    if (state.status === "failed") return { kind: "plan", status: "failed" };
    return { kind: "plan", status: events.some((event) => event.type === "WorkflowVersionRegistered") ? "planned" : "running" };
  }
  return { kind: "run", status: state.status };
}

/** A run that can still change (the live view keeps polling it). */
export function isUnfinished(status: InspectedRunStatus): boolean {
  return status === "running" || status === "not_started";
}
