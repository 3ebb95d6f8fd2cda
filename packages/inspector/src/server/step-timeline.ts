import type { EventEnvelope } from "@little-stack/local-world";

/** One bar of the timeline: a step attempt or a fixer session, in ms from the run's first event. */
export type TimelineBar = {
  readonly kind: "attempt" | "fixer";
  readonly attempt: number;
  readonly startMs: number;
  /** null while it runs. */
  readonly endMs: number | null;
  readonly status: "running" | "completed" | "failed";
};

/** One row per step path (a loop visit, a parallel branch's step and a retried step each have theirs). */
export type TimelineRow = {
  readonly stepPath: string;
  readonly stepId: string;
  /** `item` of the branch when the step runs in a parallel branch. */
  readonly branch: string | null;
  readonly visit: number;
  readonly bars: readonly TimelineBar[];
};

type MutableBar = { kind: "attempt" | "fixer"; attempt: number; startMs: number; endMs: number | null; status: TimelineBar["status"] };
type Payload = Record<string, unknown>;

/**
 * The timeline of step attempts from the log. A bar starts at its `StepAttemptStarted`'s
 * `startedAt` (the event itself is committed with the attempt's first result, so its own time can
 * be late) — or earlier, when a model or tool call inside it reports it took longer than that —
 * and ends at the
 * attempt's `StepCompleted`/`StepFailed`. Fixer sessions are bars of their own on the step's row.
 */
export function stepTimeline(events: readonly EventEnvelope[]): { readonly rows: TimelineRow[]; readonly spanMs: number } {
  const origin = events.length === 0 ? 0 : Date.parse(events[0]!.recordedAt);
  const at = (event: EventEnvelope) => Date.parse(event.recordedAt) - origin;
  const rows = new Map<string, { stepPath: string; stepId: string; branch: string | null; visit: number; bars: MutableBar[] }>();
  const open = new Map<string, MutableBar>();
  const fixers = new Map<string, MutableBar>();
  const fixerByPath = new Map<string, MutableBar>();
  let spanMs = 0;
  const rowFor = (stepPath: string, stepId: string) => {
    let row = rows.get(stepPath);
    if (row === undefined) {
      row = { stepPath, stepId, branch: branchOf(stepPath), visit: visitOf(stepPath), bars: [] };
      rows.set(stepPath, row);
    }
    return row;
  };
  for (const event of events) {
    const payload = (event.payload ?? {}) as Payload;
    const time = at(event);
    spanMs = Math.max(spanMs, time);
    const stepPath = typeof payload["stepPath"] === "string" ? (payload["stepPath"] as string) : undefined;
    switch (event.type) {
      case "StepAttemptStarted": {
        // The attempt's own start when the event says it (it is recorded with the attempt's first
        // result — a tool.call step's with its StepCompleted — so its own time can be late).
        const logged = typeof payload["startedAt"] === "string" ? Date.parse(payload["startedAt"]) - origin : Number.NaN;
        const bar: MutableBar = { kind: "attempt", attempt: Number(payload["attempt"] ?? 1), startMs: Number.isFinite(logged) ? Math.min(logged, time) : time, endMs: null, status: "running" };
        rowFor(stepPath!, String(payload["stepId"] ?? stepPath)).bars.push(bar);
        open.set(stepPath!, bar);
        break;
      }
      case "StepCompleted":
      case "StepFailed": {
        const bar = stepPath === undefined ? undefined : open.get(stepPath);
        if (bar === undefined) break;
        bar.endMs = time;
        bar.status = event.type === "StepCompleted" ? "completed" : "failed";
        open.delete(stepPath!);
        break;
      }
      case "harness.model.responded":
      case "harness.model.failed":
      case "harness.tool_call.succeeded":
      case "harness.tool_call.failed": {
        const duration = Number(payload["durationMs"] ?? 0);
        const fixer = stepPath === undefined ? undefined : fixerByPath.get(stepPath);
        const bar = stepPath === undefined ? undefined : fixer?.endMs === null ? fixer : open.get(stepPath);
        if (bar !== undefined && duration > 0) bar.startMs = Math.min(bar.startMs, time - duration);
        break;
      }
      case "harness.session.started": {
        const manifest = (payload["manifest"] ?? {}) as Payload;
        if (payload["role"] !== "fixer" || typeof manifest["stepPath"] !== "string") break;
        const path = manifest["stepPath"] as string;
        const attempt = open.get(path)?.attempt ?? 1;
        const bar: MutableBar = { kind: "fixer", attempt, startMs: time, endMs: null, status: "running" };
        rowFor(path, path.split(".").at(-1) ?? path).bars.push(bar);
        fixers.set(String(payload["sessionId"]), bar);
        fixerByPath.set(path, bar);
        break;
      }
      case "harness.session.completed":
      case "harness.session.failed": {
        const bar = fixers.get(String(payload["sessionId"]));
        if (bar === undefined) break;
        bar.endMs = time;
        bar.status = event.type === "harness.session.completed" ? "completed" : "failed";
        fixers.delete(String(payload["sessionId"]));
        break;
      }
      default:
        break;
    }
  }
  // A parallel group's attempt is announced with its first committed result: it began no later
  // than its first branch step.
  const all = [...rows.values()];
  for (const group of all) {
    const branches = all.filter((row) => row.stepPath.startsWith(`${group.stepPath}[`) || row.stepPath.startsWith(`${group.stepPath}@`));
    const first = group.bars[0];
    if (branches.length === 0 || first === undefined) continue;
    for (const branch of branches) for (const bar of branch.bars) first.startMs = Math.min(first.startMs, bar.startMs);
  }
  return { rows: all, spanMs };
}

/** `fan[a%2Eb].work` → `a.b`; null outside a branch. */
function branchOf(stepPath: string): string | null {
  const match = /\[([^\]]*)\]/.exec(stepPath);
  if (match === null) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/** `draft.visit[1]` → 2 (visit indexes are 0-based); 1 for a step visited once. */
function visitOf(stepPath: string): number {
  const match = /visit\[(\d+)\]$/.exec(stepPath);
  return match === null ? 1 : Number(match[1]) + 1;
}
