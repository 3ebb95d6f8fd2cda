import { localWorld, type EventEnvelope, type World } from "@little-stack/local-world";
import type { CommittedRunEvent, RunEvent } from "@little-stack/runtime";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifySetup, createFanOutOrchestrator, documents } from "../__fixtures__/fan-out.js";
import { runOrchestration } from "../orchestration/run-orchestration.js";
import { runWorkflow } from "../run/run-workflow.js";
import { streamOrchestration, streamWorkflow } from "./stream-workflow.js";

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-live-"));
  world = localWorld({ dataDir, maxConcurrentSteps: 16 });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const identity = (event: EventEnvelope | CommittedRunEvent) => `${event.runId}#${event.sequence} ${event.type} ${event.eventId}`;
const committed = (events: readonly RunEvent[]) => events.filter((event): event is CommittedRunEvent => !event.ephemeral);

describe("streamWorkflow", () => {
  it("yields the compile and the run's events as committed, in order, once each, and the result", async () => {
    const { tools, workflow } = classifySetup();
    const item = documents(1)[0]!;
    const { events, result } = streamWorkflow(workflow, item, { world, tools, runId: "run-stream-compile" });
    const seen: RunEvent[] = [];
    for await (const event of events) seen.push(event);
    const output = await result;
    expect(output.output).toEqual({ documentId: item.documentId, label: "invoice" });
    const stored = await world.listEvents("run-stream-compile");
    expect(committed(seen).map(identity)).toEqual(stored.map(identity));
    const types = stored.map((event) => event.type);
    // The planner's compile is in the stream, before the steps.
    expect(types.indexOf("OrchestrationRequested")).toBeGreaterThanOrEqual(0);
    expect(types.indexOf("WorkflowValidationSucceeded")).toBeLessThan(types.indexOf("StepCompleted"));
    expect(committed(seen).every((event) => !event.replayed)).toBe(true);
  });

  it("replays a finished run's record, flagged, and commits nothing new", async () => {
    const { tools, workflow } = classifySetup();
    const item = documents(1)[0]!;
    await runWorkflow(workflow, item, { world, tools, runId: "run-stream-again" });
    const stored = await world.listEvents("run-stream-again");
    const seen: RunEvent[] = [];
    await runWorkflow(workflow, item, { world, tools, runId: "run-stream-again", onEvent: (event) => seen.push(event) });
    expect(committed(seen).map(identity)).toEqual(stored.map(identity));
    expect(committed(seen).every((event) => event.replayed)).toBe(true);
  });

  it("ends the events with the run's failure", async () => {
    const { tools, workflow } = classifySetup();
    const { events, result } = streamWorkflow(workflow, { documentId: 7 } as never, { world, tools, runId: "run-stream-bad-input" });
    await expect((async () => {
      for await (const event of events) void event;
    })()).rejects.toThrow(/input/);
    await expect(result).rejects.toThrow(/input/);
  });

  it("refuses an onEvent that is not a function", async () => {
    const { tools, workflow } = classifySetup();
    await expect(runWorkflow(workflow, documents(1)[0]!, { world, tools, onEvent: 42 as never })).rejects.toThrow(/onEvent/);
  });
});

describe("runOrchestration with onEvent", () => {
  it("delivers the pipeline run's and every plan and sub-run's events, each tagged with its run, in each run's commit order", async () => {
    const items = documents(6);
    const { tools, workflow } = classifySetup();
    const seen: RunEvent[] = [];
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: { documents: items }, world, tools, runId: "pipeline-live", onEvent: (event) => seen.push(event) });
    expect(result.subRuns).toHaveLength(6);
    const runIds = ["pipeline-live", ...result.plannedVersions.map((plan) => plan.planRunId), ...result.subRuns.map((subRun) => subRun.runId)];
    expect(new Set(committed(seen).map((event) => event.runId))).toEqual(new Set(runIds));
    for (const runId of runIds) {
      const stored = await world.listEvents(runId);
      expect(committed(seen).filter((event) => event.runId === runId).map(identity)).toEqual(stored.map(identity));
    }
    for (const subRun of result.subRuns) {
      const started = committed(seen).find((event) => event.runId === subRun.runId && event.type === "RunStarted");
      expect((started?.payload as { parentRunId?: string }).parentRunId).toBe("pipeline-live");
    }
  });

  it("streams the same as an async iterable", async () => {
    const items = documents(3);
    const { tools, workflow } = classifySetup();
    const { events, result } = streamOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: { documents: items }, world, tools, runId: "pipeline-stream", bufferSize: 4 });
    const seen: RunEvent[] = [];
    for await (const event of events) seen.push(event);
    const outcome = await result;
    for (const runId of ["pipeline-stream", ...outcome.subRuns.map((subRun) => subRun.runId)]) {
      const stored = await world.listEvents(runId);
      expect(committed(seen).filter((event) => event.runId === runId).map(identity)).toEqual(stored.map(identity));
    }
  });
});
