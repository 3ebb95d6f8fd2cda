import { isWorkflowDefinition, workflowDefinitionReady, type WorkflowDefinition, type WorkflowInput, type WorkflowOutput } from "@little-stack/authoring";
import { randomId } from "@little-stack/canonical";
import type { ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { ModelRegistry } from "@little-stack/models";
import { RunEventDispatcher, type RunEventListener, type RunResult } from "@little-stack/runtime";
import type { ToolSet } from "ai";
import { InvalidOrchestrationOptionsError } from "../errors/orchestrator-errors.js";
import { runOuterLoop } from "../outer-loop/run-outer-loop.js";
import { worldReportingTo } from "../live/world-reporting-to.js";
import { Deadline } from "./deadline.js";
import { resolveRunTools } from "./resolve-run-tools.js";
import { runCycle } from "./run-cycle.js";

export type RunWorkflowOptions = {
  readonly world: World;
  /** The tool registry (`createToolRegistry`) or a record of AI SDK tools; the workflow sees the ones it lists. */
  readonly tools?: ToolRegistry | ToolSet;
  /** `"30m"`, `"90s"`, `"250ms"` or milliseconds, for the whole call (compile, run, every cycle). */
  readonly timeout?: string | number;
  readonly signal?: AbortSignal;
  /** The id of an earlier, unfinished call to resume it; default: a new `run_…` id. */
  readonly runId?: string;
  /** Compile-and-run cycles at most (default: `planner.maxOuterCycles`, itself 1); above 1 needs `planner.supervise`. */
  readonly maxOuterCycles?: number;
  /** Prices usage (default: the bundled registry). */
  readonly modelRegistry?: ModelRegistry;
  /** The orchestrator's run when this run is a sub-run of a pipeline. */
  readonly parentRunId?: string;
  /**
   * Watches the run live: every event as it is committed, in commit order — compile, planner,
   * steps, outer-loop cycles (each cycle is its own run: tell them apart by `runId`) — a resumed
   * run's recorded events first (`replayed: true`), and the text deltas of live model calls
   * (`ephemeral: true`, never recorded). Called synchronously; see `RunEventListener`.
   */
  readonly onEvent?: RunEventListener;
};

const call = "runWorkflow";

function checkOptions(workflow: unknown, options: RunWorkflowOptions | undefined): asserts options is RunWorkflowOptions {
  if (!isWorkflowDefinition(workflow)) {
    throw new InvalidOrchestrationOptionsError({ call, field: "workflow", problem: "is not a workflow definition", fix: "Pass what defineWorkflow({ … }) returns." });
  }
  if (typeof options !== "object" || options === null) {
    throw new InvalidOrchestrationOptionsError({ call, field: "options", problem: "is missing", fix: "Pass { world: localWorld({ dataDir }), tools }." });
  }
  const world = options.world as Partial<World> | undefined;
  if (typeof world?.appendEvents !== "function" || typeof world.listEvents !== "function") {
    throw new InvalidOrchestrationOptionsError({ call, field: "world", problem: "is not a World", fix: "Pass world: localWorld({ dataDir: \".little-workflow\" }) (or memoryWorld())." });
  }
  if (options.runId !== undefined && (typeof options.runId !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(options.runId))) {
    throw new InvalidOrchestrationOptionsError({ call, field: "runId", problem: `is ${JSON.stringify(options.runId)}`, fix: "Use letters, digits, '.', '_' or '-' (at most 128), starting with a letter or digit." });
  }
  if (options.onEvent !== undefined && typeof options.onEvent !== "function") {
    throw new InvalidOrchestrationOptionsError({ call, field: "onEvent", problem: "is not a function", fix: "Pass onEvent: (event) => { … }, or use streamWorkflow for an async iterable." });
  }
  const cycles = options.maxOuterCycles;
  if (cycles !== undefined && (!Number.isInteger(cycles) || cycles < 1 || cycles > 100)) {
    throw new InvalidOrchestrationOptionsError({ call, field: "maxOuterCycles", problem: `must be an integer from 1 to 100, got ${String(cycles)}`, fix: "Leave it out for planner.maxOuterCycles (default 1)." });
  }
}

/**
 * Compiles the workflow (a durable planner session) and executes the locked version, in one run
 * (seed 000, Public API Contract). With more than one outer cycle, `planner.supervise` decides
 * after each cycle whether to finish or re-plan (Layer B). Calling it again with the same `runId`
 * after a crash resumes: recorded planner turns and completed steps are not executed again.
 *
 * Returns the RunResult; throws RunFailedError (cause code, failed result attached).
 */
export async function runWorkflow<W extends WorkflowDefinition<any, any>>(workflow: W, input: WorkflowInput<W>, options: RunWorkflowOptions): Promise<RunResult<WorkflowOutput<W>>> {
  checkOptions(workflow, options);
  // An AI SDK Output.object/array/choice output is known once its schema has resolved.
  const definition = (await workflowDefinitionReady(workflow)) as WorkflowDefinition;
  const maxCycles = options.maxOuterCycles ?? definition.planner.maxOuterCycles;
  if (maxCycles > 1 && definition.planner.supervise === undefined) {
    throw new InvalidOrchestrationOptionsError({ call, field: "maxOuterCycles", problem: `is ${maxCycles} but workflow "${definition.id}" has no planner.supervise`, fix: "Give planner.supervise (it decides after each cycle), or run one cycle." });
  }
  const tools = resolveRunTools({ call, definition, tools: options.tools });
  const runId = options.runId ?? randomId("run");
  const deadline = new Deadline({ ...(options.timeout === undefined ? {} : { timeout: options.timeout }), ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const watcher = options.onEvent === undefined ? undefined : new RunEventDispatcher(options.onEvent);
  // A resumed (or finished) run's record reaches the watcher first, whichever phase reads it.
  if (watcher !== undefined) watcher.committed(await options.world.listEvents(runId), { replayed: true });
  const common = {
    definition,
    input,
    world: watcher === undefined ? options.world : worldReportingTo(options.world, watcher),
    ...(watcher === undefined ? {} : { watcher }),
    tools,
    deadline,
    ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
  };
  try {
    if (maxCycles > 1) return (await runOuterLoop({ ...common, runId, maxCycles })) as RunResult<WorkflowOutput<W>>;
    return (await runCycle({ ...common, runId })) as RunResult<WorkflowOutput<W>>;
  } finally {
    deadline.dispose();
  }
}
