import { sha256Digest } from "@little-stack/canonical";
import type { World } from "@little-stack/local-world";
import { addModelCallToTotals, bundledModelRegistry, emptyUsageTotals, priceModelCall, type ModelRegistry, type UsageTotals } from "@little-stack/models";
import { WorkflowVersionMismatchError } from "../errors/run-integrity-errors.js";
import type { ArtifactCreatedPayload, ArtifactRecord, EventRecord, RunCompletedPayload, RunStartedPayload } from "../events/runtime-event-types.js";
import { historyUpTo } from "./run-history.js";
import { runResultWithEventsOnDemand, type RunResult } from "./run-result.js";

export type CompletedRunResultOptions = {
  readonly world: World;
  readonly runId: string;
  readonly input: unknown;
  /**
   * The run's events, when the caller has read them already: the result is read off them. Without
   * it, only what the result is made of is read from the world (see `completedRunResult`).
   */
  readonly events?: readonly EventRecord[];
  readonly modelRegistry?: ModelRegistry;
  /**
   * The version the caller runs: a completed run started with another one is refused with
   * `WorkflowVersionMismatchError` (before its input is compared). Without it the version is not
   * compared.
   */
  readonly workflowVersionId?: string;
};

/**
 * The recorded result of a finished run, without folding its events into a run state: the version
 * and input from `RunStarted`, the output from `RunCompleted` (or its artifact, which the world
 * re-hashes), usage from the model responses, artifacts from `ArtifactCreated`. A completed run
 * is final, so running it again only has to return this — no lock, no compile, no scheduler.
 *
 * Only those events are read (the world verifies each one it returns, and checks that the log
 * still reaches the run's last commit, as for any read); the result's `events` — the whole log —
 * are read and verified when the caller first reads them (`World.deferListEvents`). So a row the
 * result is not made of, damaged behind the world's back, is refused when the events are read,
 * not by this call. A world without `deferListEvents` has every event read here, as before.
 *
 * `undefined` when the run has not completed (its last event is not `RunCompleted`) or was started
 * with another input: the caller then takes the ordinary path, which reports why (input mismatch, …).
 */
export async function completedRunResult(options: CompletedRunResultOptions): Promise<RunResult | undefined> {
  const { world, runId } = options;
  if (options.events !== undefined) return resultOfEvents(options, options.events);
  const summary = await world.getRun(runId);
  if (summary?.lastEventType !== "RunCompleted") return undefined;
  if (typeof world.deferListEvents !== "function") return resultOfEvents(options, (await world.listEvents(runId)) as readonly EventRecord[]);

  // RunStarted and RunCompleted (and RunFailed, which a completed run does not have) in one read.
  const runEvents = (await world.listEvents(runId, { typePrefix: "Run" })) as readonly EventRecord[];
  const started = runEvents.find((event) => event.type === "RunStarted");
  const completed = runEvents.at(-1);
  // Anything but a log that ends in the RunCompleted the summary saw goes the ordinary way.
  if (started === undefined || completed?.type !== "RunCompleted" || completed.sequence !== summary.eventCount) return undefined;
  const startedPayload = started.payload as RunStartedPayload;
  requireVersion(options, startedPayload);
  if (!sameInput(startedPayload, options.input)) return undefined;

  const [responses, artifactEvents, deferred, output] = await Promise.all([
    world.listEvents(runId, { typePrefix: "harness.model.responded" }) as Promise<readonly EventRecord[]>,
    world.listEvents(runId, { typePrefix: "ArtifactCreated" }) as Promise<readonly EventRecord[]>,
    world.deferListEvents(runId),
    outputOf(world, completed.payload as RunCompletedPayload),
  ]);
  const usage = usageOf(responses, options.modelRegistry);
  if (usage === undefined) return undefined;
  return runResultWithEventsOnDemand(
    {
      runId,
      workflowVersionId: startedPayload.workflowVersionId,
      status: "completed",
      output,
      usage,
      artifacts: artifactEvents.map((event) => (event.payload as ArtifactCreatedPayload).artifact),
    },
    // The whole log, read when the result's events are asked for: the history this result was read from.
    () => historyUpTo({ runId, deferred, anchors: [started, completed] }),
  );
}

/** The result read off every event of the run (given, or read at once from a world that cannot defer). */
async function resultOfEvents(options: CompletedRunResultOptions, events: readonly EventRecord[]): Promise<RunResult | undefined> {
  const last = events.at(-1);
  if (last?.type !== "RunCompleted") return undefined;
  const started = events.find((event) => event.type === "RunStarted")?.payload as RunStartedPayload | undefined;
  if (started === undefined) return undefined;
  requireVersion(options, started);
  if (!sameInput(started, options.input)) return undefined;
  const usage = usageOf(
    events.filter((event) => event.type === "harness.model.responded"),
    options.modelRegistry,
  );
  if (usage === undefined) return undefined;
  const artifacts = events.filter((event) => event.type === "ArtifactCreated").map((event) => (event.payload as ArtifactCreatedPayload).artifact);
  const output = await outputOf(options.world, last.payload as RunCompletedPayload);
  return { runId: options.runId, workflowVersionId: started.workflowVersionId, status: "completed", output, usage, events, artifacts };
}

function requireVersion(options: CompletedRunResultOptions, started: RunStartedPayload): void {
  const given = options.workflowVersionId;
  if (given !== undefined && started.workflowVersionId !== undefined && started.workflowVersionId !== given) {
    throw new WorkflowVersionMismatchError({ runId: options.runId, storedVersionId: started.workflowVersionId, givenVersionId: given });
  }
}

function sameInput(started: RunStartedPayload, input: unknown): boolean {
  return sha256Digest(started.input ?? null) === sha256Digest(input ?? null);
}

/** The priced usage of the model responses; `undefined` for a response without model or usage (a foreign log). */
function usageOf(responses: readonly EventRecord[], modelRegistry: ModelRegistry | undefined): UsageTotals | undefined {
  const registry = modelRegistry ?? bundledModelRegistry;
  let usage = emptyUsageTotals();
  for (const event of responses) {
    const payload = event.payload as { model?: { provider?: unknown; modelId?: unknown }; response?: { usage?: unknown } };
    if (payload.model === undefined || payload.response === undefined) return undefined;
    const priced = priceModelCall({ provider: String(payload.model.provider), modelId: String(payload.model.modelId), usage: payload.response.usage as never }, registry);
    usage = addModelCallToTotals(usage, priced);
  }
  return usage;
}

async function outputOf(world: World, completed: RunCompletedPayload): Promise<unknown> {
  if (Object.hasOwn(completed, "output")) return completed.output;
  return completed.outputRef?.startsWith("art_") === true ? world.readArtifactJson(completed.outputRef) : null;
}
