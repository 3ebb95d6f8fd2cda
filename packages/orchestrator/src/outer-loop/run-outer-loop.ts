import type { SuperviseDecision, SuperviseRequest, WorkflowDefinition } from "@little-stack/authoring";
import { canonicalJson, contentId, sha256Digest, sha256DigestOfBytes } from "@little-stack/canonical";
import type { OuterLoopContext, ToolRegistry } from "@little-stack/harness";
import type { EventEnvelope, World } from "@little-stack/local-world";
import type { ModelRegistry, UsageTotals } from "@little-stack/models";
import { emptyUsageTotals, sumUsageTotals } from "@little-stack/models";
import { inlineOutputLimit, materializeRunState, RunFailedError, type RunEventDispatcher, type RunFailedCauseCode, type RunResult } from "@little-stack/runtime";
import { createSchemaValidator } from "@little-stack/lwir";
import { InvalidOrchestrationOptionsError, OuterLoopMismatchError } from "../errors/orchestrator-errors.js";
import type { Deadline } from "../run/deadline.js";
import { runCycle } from "../run/run-cycle.js";
import { toJsonObject, type OuterLoopManifest } from "./outer-loop-manifest.js";

/** What `OuterLoopCycleCompleted` records: the cycle's outcome and supervise's decision. */
export type OuterLoopCycleCompletedPayload = {
  readonly outerLoopId: string;
  readonly cycleNumber: number;
  readonly maxCycles: number;
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed" | "failed";
  readonly output?: unknown;
  readonly outputRef?: string;
  readonly error?: { readonly name: string; readonly message: string; readonly causeCode: string };
  readonly usage: UsageTotals;
  readonly decision: { readonly kind: "done"; readonly finalOutput: unknown } | { readonly kind: "continue"; readonly promptNote?: string };
};

/** Cause codes that end the loop at once: supervising cannot change them, or the caller stopped. */
const loopEndingCauses: ReadonlySet<RunFailedCauseCode> = new Set(["input_schema_error", "capability_drift", "runtime_config_error", "timeout", "cancelled"]);

/** The id of the outer loop of a run id (deterministic, so a resume finds its manifest). */
export function outerLoopIdFor(runId: string): string {
  return contentId("oloop", { runId });
}

/** The run id of cycle `cycleNumber` (deterministic too; the manifest's pendingCycleRunId is what a resume trusts). */
export function cycleRunIdFor(outerLoopId: string, cycleNumber: number): string {
  return contentId("run", { outerLoopId, cycleNumber });
}

function checkDecision(decision: unknown, workflowId: string): SuperviseDecision {
  const kind = (decision as { kind?: unknown } | null)?.kind;
  if (kind === "done" || kind === "continue") return decision as SuperviseDecision;
  throw new InvalidOrchestrationOptionsError({
    call: "runWorkflow",
    field: `planner.supervise of "${workflowId}"`,
    problem: `returned ${canonicalJson(decision ?? null).slice(0, 200)}`,
    fix: "Return { kind: \"done\", finalOutput } or { kind: \"continue\", promptNote? }.",
  });
}

function cycleSummary(payload: OuterLoopCycleCompletedPayload): SuperviseRequest["cycles"][number] {
  return {
    cycleNumber: payload.cycleNumber,
    status: payload.status,
    ...(Object.hasOwn(payload, "output") ? { output: payload.output } : {}),
    ...(payload.error === undefined ? {} : { summary: `${payload.error.causeCode}: ${payload.error.message}` }),
  };
}

/**
 * Layer B (seed 000, Outer Loop): compile + run cycles sharing one outer loop id until
 * `planner.supervise` says done, or fails with `outer_loop_exhausted` when it still says continue
 * after the last cycle. The caller's run id names the loop: its log gets one
 * `OuterLoopCycleCompleted` per cycle, then `RunCompleted` / `RunFailed`. Each cycle is its own
 * run (parentRunId = the loop's run id). A resume reads the recorded cycles (supervise is not asked
 * again) and continues the pending cycle from its own log, or starts the next one.
 */
export async function runOuterLoop(options: {
  readonly definition: WorkflowDefinition;
  readonly input: unknown;
  readonly world: World;
  readonly runId: string;
  readonly tools: ToolRegistry;
  readonly deadline: Deadline;
  readonly maxCycles: number;
  readonly modelRegistry?: ModelRegistry;
  readonly watcher?: RunEventDispatcher;
}): Promise<RunResult> {
  const { definition, world, runId, maxCycles } = options;
  const supervise = definition.planner.supervise!;
  const outerLoopId = outerLoopIdFor(runId);
  const inputHash = sha256Digest(options.input ?? null);
  const registry = options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry };

  const stored = (await world.readOuterLoopManifest(outerLoopId)) as OuterLoopManifest | undefined;
  if (stored !== undefined) {
    if (stored.inputHash !== inputHash) throw new OuterLoopMismatchError({ outerLoopId, field: "input", stored: stored.inputHash, given: inputHash });
    if (stored.workflowId !== definition.id) throw new OuterLoopMismatchError({ outerLoopId, field: "workflow", stored: stored.workflowId, given: definition.id });
  }
  const events = await world.listEvents(runId);
  const recorded = events.filter((event) => event.type === "OuterLoopCycleCompleted").map((event) => event.payload as unknown as OuterLoopCycleCompletedPayload);
  const terminal = events.find((event) => event.type === "RunCompleted" || event.type === "RunFailed");
  if (terminal !== undefined) return finish({ ...options, outerLoopId, recorded, terminal, registry });

  let manifest: OuterLoopManifest = stored ?? {
    outerLoopId,
    runId,
    workflowId: definition.id,
    inputHash,
    maxCycles,
    status: "running",
    cycles: [],
    updatedAt: new Date().toISOString(),
  };
  const write = async (next: Omit<OuterLoopManifest, "updatedAt">): Promise<void> => {
    manifest = { ...next, updatedAt: new Date().toISOString() } as OuterLoopManifest;
    await world.writeOuterLoopManifest(outerLoopId, toJsonObject(manifest));
  };
  // The events are the truth: a manifest written before a crash may lag one cycle behind them.
  const entries = recorded.map((payload) => ({ cycleNumber: payload.cycleNumber, runId: payload.runId, workflowVersionId: payload.workflowVersionId, status: payload.status, decision: payload.decision.kind }));

  for (let cycleNumber = recorded.length + 1; cycleNumber <= maxCycles; cycleNumber += 1) {
    const previous = recorded.at(-1);
    const cycleRunId = manifest.pendingCycleNumber === cycleNumber && manifest.pendingCycleRunId !== undefined ? manifest.pendingCycleRunId : cycleRunIdFor(outerLoopId, cycleNumber);
    const { pendingCycleRunId: _run, pendingCycleNumber: _number, updatedAt: _at, ...rest } = manifest;
    await write({ ...rest, cycles: entries, pendingCycleRunId: cycleRunId, pendingCycleNumber: cycleNumber });
    const outerLoopContext: OuterLoopContext = {
      outerLoopId,
      cycleNumber,
      maxCycles,
      isFinalCycle: cycleNumber === maxCycles,
      priorCycles: recorded.map(cycleSummary),
      ...(previous?.decision.kind === "continue" && previous.decision.promptNote !== undefined ? { promptNote: previous.decision.promptNote } : {}),
    };
    let outcome: Omit<OuterLoopCycleCompletedPayload, "decision">;
    try {
      const result = await runCycle({ ...options, runId: cycleRunId, outerLoopContext, parentRunId: runId, outerLoopId, ...registry });
      const inline = canonicalJson(result.output ?? null).length <= inlineOutputLimit;
      // By type: a long cycle's result.events would read its whole log.
      const completed = (await world.listEvents(cycleRunId, { typePrefix: "RunCompleted" })).at(-1)?.payload as { outputRef?: string } | undefined;
      outcome = {
        outerLoopId,
        cycleNumber,
        maxCycles,
        runId: cycleRunId,
        workflowVersionId: result.workflowVersionId,
        status: "completed",
        ...(inline ? { output: result.output ?? null } : {}),
        outputRef: completed?.outputRef ?? sha256DigestOfBytes(canonicalJson(result.output ?? null)),
        usage: result.usage,
      };
    } catch (error) {
      if (!(error instanceof RunFailedError) || loopEndingCauses.has(error.causeCode)) {
        if (error instanceof RunFailedError) throw new RunFailedError({ runId: error.runId, workflowVersionId: error.workflowVersionId, causeCode: error.causeCode, message: `outer loop ${outerLoopId}, cycle ${cycleNumber}: ${error.message}`, ...(error.failedStepPath === undefined ? {} : { failedStepPath: error.failedStepPath }), ...(error.result === undefined ? {} : { result: error.result }), outerLoopId, cause: error });
        throw error;
      }
      outcome = {
        outerLoopId,
        cycleNumber,
        maxCycles,
        runId: cycleRunId,
        workflowVersionId: error.workflowVersionId,
        status: "failed",
        error: { name: error.name, message: error.message, causeCode: error.causeCode },
        usage: error.result?.usage ?? emptyUsageTotals(),
      };
    }
    const decision = checkDecision(await supervise({ goal: options.input, cycles: [...recorded.map(cycleSummary), cycleSummary(outcome as OuterLoopCycleCompletedPayload)] }), definition.id);
    const payload: OuterLoopCycleCompletedPayload = { ...outcome, decision: decision.kind === "done" ? { kind: "done", finalOutput: decision.finalOutput ?? null } : { kind: "continue", ...(decision.promptNote === undefined ? {} : { promptNote: decision.promptNote }) } };
    await world.appendEvents(runId, [{ type: "OuterLoopCycleCompleted", payload }]);
    recorded.push(payload);
    entries.push({ cycleNumber, runId: cycleRunId, workflowVersionId: payload.workflowVersionId, status: payload.status, decision: decision.kind });
    const { pendingCycleRunId: _run2, pendingCycleNumber: _number2, updatedAt: _at2, ...settled } = manifest;
    if (decision.kind === "done") {
      const output = payload.decision.kind === "done" ? payload.decision.finalOutput : null;
      const check = createSchemaValidator(definition.outputSchema)(output ?? null);
      if (!check.valid) {
        const message = `planner.supervise of "${definition.id}" returned a finalOutput that does not match the workflow's output schema: ${check.errors.slice(0, 5).map((issue) => `${issue.path} ${issue.message}`).join("; ")}`;
        const [failedEvent] = await world.appendEvents(runId, [
          { type: "RunFailed", payload: { workflowVersionId: payload.workflowVersionId, outerLoopId, error: { name: "OuterLoopFinalOutputSchemaError", message, causeCode: "step_schema_error" } } },
        ]);
        await write({ ...settled, cycles: entries, status: "failed" });
        return finish({ ...options, outerLoopId, recorded, terminal: failedEvent!, registry });
      }
      const [terminalEvent] = await world.appendEvents(runId, [
        { type: "RunCompleted", payload: { workflowVersionId: payload.workflowVersionId, output, outputRef: sha256DigestOfBytes(canonicalJson(output ?? null)), terminalStepPath: null, outerLoopId } },
      ]);
      await write({ ...settled, cycles: entries, status: "completed" });
      return finish({ ...options, outerLoopId, recorded, terminal: terminalEvent!, registry });
    }
    await write({ ...settled, cycles: entries });
  }
  const last = recorded.at(-1)!;
  const message = `planner.supervise still said "continue" after the final cycle (${maxCycles} of ${maxCycles})`;
  const [terminalEvent] = await world.appendEvents(runId, [
    { type: "RunFailed", payload: { workflowVersionId: last.workflowVersionId, outerLoopId, error: { name: "OuterLoopExhaustedError", message, causeCode: "outer_loop_exhausted" } } },
  ]);
  const { pendingCycleRunId: _run3, pendingCycleNumber: _number3, updatedAt: _at3, ...settled } = manifest;
  await write({ ...settled, cycles: entries, status: "failed" });
  return finish({ ...options, outerLoopId, recorded, terminal: terminalEvent!, registry });
}

async function finish(options: {
  readonly world: World;
  readonly runId: string;
  readonly outerLoopId: string;
  readonly recorded: readonly OuterLoopCycleCompletedPayload[];
  readonly terminal: EventEnvelope;
  readonly registry: { readonly modelRegistry?: ModelRegistry };
}): Promise<RunResult> {
  const { world, runId, outerLoopId, recorded, terminal } = options;
  // Usage of the whole loop: every cycle's run, priced now (cost is never stored).
  const usages = await Promise.all(recorded.map(async (cycle) => materializeRunState(await world.listEvents(cycle.runId), { runId: cycle.runId, ...options.registry }).usage));
  const usage = usages.length === 0 ? emptyUsageTotals() : sumUsageTotals(usages);
  const events = await world.listEvents(runId);
  const last = recorded.at(-1);
  const workflowVersionId = last?.workflowVersionId ?? "";
  if (terminal.type === "RunFailed") {
    const error = (terminal.payload as { error: { name: string; message: string; causeCode: RunFailedCauseCode } }).error;
    const lastCycleOutput = last !== undefined && Object.hasOwn(last, "output") ? last.output : undefined;
    throw new RunFailedError({
      runId,
      workflowVersionId,
      causeCode: error.causeCode,
      message: error.message,
      outerLoopId,
      ...(lastCycleOutput === undefined ? {} : { lastCycleOutput }),
      result: { runId, workflowVersionId, status: "failed", error: { name: error.name, message: error.message, causeCode: error.causeCode }, usage, events, artifacts: [] },
    });
  }
  return { runId, workflowVersionId, status: "completed", output: (terminal.payload as { output?: unknown }).output ?? null, usage, events, artifacts: [] };
}
