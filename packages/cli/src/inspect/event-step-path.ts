/**
 * The step path an event is about: `payload.stepPath` (runtime events and every harness event of a
 * step's session) or, for harness.session.started, its manifest's stepPath. Undefined for events
 * that carry neither (the run's own events, planner and orchestrator sessions).
 */
export function eventStepPath(payload: unknown): string | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const record = payload as { stepPath?: unknown; manifest?: { stepPath?: unknown } };
  if (typeof record.stepPath === "string") return record.stepPath;
  const fromManifest = typeof record.manifest === "object" && record.manifest !== null ? record.manifest.stepPath : undefined;
  return typeof fromManifest === "string" ? fromManifest : undefined;
}
