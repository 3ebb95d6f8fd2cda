/** One step path on the run's timeline: when its first attempt started and its last one ended. */
export type TimelineRow = {
  readonly stepPath: string;
  /** Milliseconds from the run's start (its `RunStarted`) to the step's first attempt. */
  readonly startMs: number;
  /** Milliseconds from the run's start to its last `StepCompleted`/`StepFailed`; undefined while it runs. */
  readonly endMs: number | undefined;
  readonly status: "running" | "completed" | "failed";
  readonly attempts: number;
};

type TimelineEvent = { readonly type: string; readonly recordedAt: string; readonly payload: unknown };

/**
 * The steps of a run on one time axis, ordered by start: steps that ran at the same time overlap.
 * A step starts at its first attempt's `startedAt` and ends at its last `StepCompleted` /
 * `StepFailed`, both measured from the run's `RunStarted`.
 */
export function stepTimeline(events: readonly TimelineEvent[]): TimelineRow[] {
  const runStart = events.find((event) => event.type === "RunStarted") ?? events[0];
  if (runStart === undefined) return [];
  const origin = Date.parse(runStart.recordedAt);
  const rows = new Map<string, { startMs: number; endMs: number | undefined; status: TimelineRow["status"]; attempts: number }>();
  for (const event of events) {
    const stepPath = (event.payload as { stepPath?: unknown } | null)?.stepPath;
    if (typeof stepPath !== "string") continue;
    const at = Date.parse(event.recordedAt) - origin;
    if (event.type === "StepAttemptStarted") {
      // The attempt's own start time; its recordedAt is when the runtime committed it, with the
      // step's next result (older logs have only that).
      const startedAt = (event.payload as { startedAt?: unknown }).startedAt;
      const startMs = typeof startedAt === "string" && !Number.isNaN(Date.parse(startedAt)) ? Date.parse(startedAt) - origin : at;
      const row = rows.get(stepPath);
      if (row === undefined) rows.set(stepPath, { startMs, endMs: undefined, status: "running", attempts: 1 });
      else Object.assign(row, { endMs: undefined, status: "running", attempts: row.attempts + 1 });
    } else if (event.type === "StepCompleted" || event.type === "StepFailed") {
      const row = rows.get(stepPath);
      if (row !== undefined) Object.assign(row, { endMs: at, status: event.type === "StepCompleted" ? "completed" : "failed" });
    }
  }
  return [...rows]
    .map(([stepPath, row]) => ({ stepPath, ...row }))
    .sort((left, right) => left.startMs - right.startMs || (left.stepPath < right.stepPath ? -1 : 1));
}

/** A bar of `width` columns showing where `row` sits between 0 and `totalMs` (`=` while it ran). */
export function timelineBar(row: TimelineRow, totalMs: number, width: number): string {
  const scale = totalMs <= 0 ? 0 : width / totalMs;
  const from = Math.min(width - 1, Math.floor(row.startMs * scale));
  const to = Math.max(from + 1, Math.min(width, Math.ceil((row.endMs ?? totalMs) * scale)));
  return `|${" ".repeat(from)}${"=".repeat(to - from)}${" ".repeat(width - to)}|`;
}
