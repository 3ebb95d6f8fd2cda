import { sha256Digest } from "@little-stack/canonical";
import type { World } from "@little-stack/local-world";
import { addModelCallToTotals, bundledModelRegistry, emptyUsageTotals, priceModelCall, type ModelRegistry } from "@little-stack/models";
import type { ArtifactCreatedPayload, ArtifactRecord, EventRecord, RunCompletedPayload, RunStartedPayload } from "../events/runtime-event-types.js";
import type { RunResult } from "./run-result.js";

/**
 * The recorded result of a finished run, read off its events without folding them into a run
 * state: the version from `RunStarted`, the output from `RunCompleted` (or its artifact, which the
 * world re-hashes), usage from the model responses, artifacts from `ArtifactCreated`. A completed
 * run is final, so running it again only has to return this — no lock, no compile, no scheduler.
 *
 * `undefined` when the events are not those of a completed run, or it was started with another
 * input: the caller then takes the ordinary path, which reports why (input mismatch, …).
 */
export async function completedRunResult(options: {
  readonly world: World;
  readonly runId: string;
  readonly input: unknown;
  /** The run's events; read from the world when not given. */
  readonly events?: readonly EventRecord[];
  readonly modelRegistry?: ModelRegistry;
}): Promise<RunResult | undefined> {
  const events = options.events ?? ((await options.world.listEvents(options.runId)) as readonly EventRecord[]);
  const last = events.at(-1);
  if (last?.type !== "RunCompleted") return undefined;
  const registry = options.modelRegistry ?? bundledModelRegistry;
  let started: RunStartedPayload | undefined;
  let usage = emptyUsageTotals();
  const artifacts: ArtifactRecord[] = [];
  for (const event of events) {
    // Only these payloads are read (envelopes parse a payload on first read).
    if (event.type === "RunStarted") started ??= event.payload as RunStartedPayload;
    else if (event.type === "ArtifactCreated") artifacts.push((event.payload as ArtifactCreatedPayload).artifact);
    else if (event.type === "harness.model.responded") {
      const payload = event.payload as { model?: { provider?: unknown; modelId?: unknown }; response?: { usage?: unknown } };
      if (payload.model === undefined || payload.response === undefined) return undefined;
      const priced = priceModelCall({ provider: String(payload.model.provider), modelId: String(payload.model.modelId), usage: payload.response.usage as never }, registry);
      usage = addModelCallToTotals(usage, priced);
    }
  }
  if (started === undefined || sha256Digest(started.input ?? null) !== sha256Digest(options.input ?? null)) return undefined;
  const completed = last.payload as RunCompletedPayload;
  const output = Object.hasOwn(completed, "output")
    ? completed.output
    : completed.outputRef?.startsWith("art_") === true
      ? await options.world.readArtifactJson(completed.outputRef)
      : null;
  return { runId: options.runId, workflowVersionId: started.workflowVersionId, status: "completed", output, usage, events, artifacts };
}
