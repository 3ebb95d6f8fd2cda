import type { EventEnvelope, World } from "@little-stack/local-world";
import { materializeRunState, type RunState } from "@little-stack/runtime";
import { inspectedKindOf, type InspectedRunKind, type InspectedRunStatus } from "./run-kind.js";
import { stepTimeline, type TimelineRow } from "./step-timeline.js";
import { layoutPlanGraph, type PlanGraph } from "./plan-graph.js";

/** One line of the runs page. */
export type RunRow = {
  readonly runId: string;
  readonly kind: InspectedRunKind;
  /** The plan's `metadata.name`, or the workflow id a plan run compiles; null when the log names none. */
  readonly workflow: string | null;
  readonly status: InspectedRunStatus;
  readonly startedAt: string;
  readonly lastEventAt: string;
  readonly durationMs: number;
  readonly stepsCompleted: number;
  readonly stepsTotal: number;
  /** Dollars of every priced model call; null when no call in the run is priced (unpriced is not free). */
  readonly costUsd: number | null;
  readonly unpricedCalls: number;
  readonly parentRunId: string | null;
  readonly eventCount: number;
};

export type RunView = RunRow & {
  readonly usage: RunState["usage"];
  readonly error: NonNullable<RunState["failure"]> | null;
  readonly output: unknown;
  readonly plan: PlanGraph | null;
  readonly timeline: { readonly rows: readonly TimelineRow[]; readonly spanMs: number };
  readonly steps: readonly {
    readonly stepPath: string;
    readonly stepId: string;
    readonly uses: string;
    readonly status: string;
    readonly attempts: number;
    readonly costUsd: number | null;
  }[];
  /** A pipeline's plan runs and sub-runs (runs whose parent is this one). */
  readonly subRuns: readonly RunRow[];
  readonly lastSequence: number;
};

type ReadRun = { readonly events: readonly EventEnvelope[]; readonly state: RunState; readonly row: RunRow };

export async function readRun(world: World, runId: string): Promise<ReadRun | undefined> {
  const events = await world.listEvents(runId);
  if (events.length === 0) return undefined;
  const state = materializeRunState(events, { runId });
  return { events, state, row: rowOf(runId, events, state) };
}

function rowOf(runId: string, events: readonly EventEnvelope[], state: RunState): RunRow {
  const { kind, status } = inspectedKindOf(events, state);
  const steps = Object.values(state.steps);
  const first = events[0]!;
  const last = events.at(-1)!;
  return {
    runId,
    kind,
    workflow: workflowNameOf(events, state),
    status,
    startedAt: first.recordedAt,
    lastEventAt: last.recordedAt,
    durationMs: Math.max(0, Date.parse(last.recordedAt) - Date.parse(first.recordedAt)),
    stepsCompleted: steps.filter((step) => step.status === "completed").length,
    stepsTotal: steps.length,
    costUsd: state.usage.costUsd,
    unpricedCalls: state.usage.unpricedCalls,
    parentRunId: state.parentRunId ?? parentOfSession(events) ?? null,
    eventCount: events.length,
  };
}

function workflowNameOf(events: readonly EventEnvelope[], state: RunState): string | null {
  const name = (state.lwir as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  if (typeof name === "string") return name;
  const requested = events.find((event) => event.type === "OrchestrationRequested")?.payload as { workflowId?: unknown; snapshot?: { id?: unknown } } | undefined;
  const id = requested?.workflowId ?? requested?.snapshot?.id;
  return typeof id === "string" ? id : null;
}

/** A plan run's parent is named by its planner session. */
function parentOfSession(events: readonly EventEnvelope[]): string | undefined {
  const started = events.find((event) => event.type === "harness.session.started")?.payload as { parentRunId?: unknown } | undefined;
  return typeof started?.parentRunId === "string" ? started.parentRunId : undefined;
}

/** Every run of the world, newest first, optionally filtered by workflow name and status. */
export async function listRunRows(world: World, filters: { readonly workflow?: string; readonly status?: string } = {}): Promise<RunRow[]> {
  const summaries = await world.listRuns();
  const rows: RunRow[] = [];
  for (const summary of summaries) {
    const run = await readRun(world, summary.runId);
    if (run === undefined) continue;
    if (filters.workflow !== undefined && filters.workflow !== "" && run.row.workflow !== filters.workflow) continue;
    if (filters.status !== undefined && filters.status !== "" && run.row.status !== filters.status) continue;
    rows.push(run.row);
  }
  return rows.sort((left, right) => (left.startedAt < right.startedAt ? 1 : left.startedAt > right.startedAt ? -1 : 0));
}

/** Everything the run page shows. */
export async function runView(world: World, runId: string): Promise<RunView | undefined> {
  const run = await readRun(world, runId);
  if (run === undefined) return undefined;
  const { events, state, row } = run;
  const lwirSteps = (state.lwir as { steps?: unknown } | undefined)?.steps;
  const plan = Array.isArray(lwirSteps) ? await layoutPlanGraph(lwirSteps as Parameters<typeof layoutPlanGraph>[0]) : null;
  const subRuns = (await listRunRows(world)).filter((candidate) => candidate.parentRunId === runId).reverse();
  return {
    ...row,
    usage: state.usage,
    error: state.failure ?? null,
    output: state.output ?? null,
    plan,
    timeline: stepTimeline(events),
    steps: Object.values(state.steps).map((step) => ({
      stepPath: step.stepPath,
      stepId: step.stepId,
      uses: step.uses,
      status: step.status,
      attempts: step.attempts,
      costUsd: step.usage.costUsd,
    })),
    subRuns,
    lastSequence: events.at(-1)!.sequence,
  };
}
