import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { counterLoop } from "../__fixtures__/loop-workflows.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { RunLogCorruptError } from "../errors/run-integrity-errors.js";
import { executeWorkflowVersion } from "../execution/execute-workflow-version.js";
import { materializeRunState } from "./materialize-run-state.js";
import { replayRun } from "./replay-run.js";
import { RunStateFolder } from "./run-state-folder.js";

async function loopRun() {
  const world = memoryWorld();
  const { registry } = countingTools();
  const lwir = lwirDocument({ steps: counterLoop({ until: 2, maxVisits: 4 }), tools: ["increment", "echo"] });
  const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-state" });
  return { world, result };
}

describe("run state", () => {
  it("folds an announcement from the payload it was built from as it would from its stored text, keeping no object of it", () => {
    const event = (sequence: number, type: string, payload: unknown) => ({ eventId: `evt_${sequence}`, runId: "run-built", sequence, type, recordedAt: "2026-12-07T00:00:00.000Z", payload });
    const scheduled = { stepPath: "fan[a].work", stepId: "work", uses: "tool.call", visitIndex: 0, parallel: { groupPath: "fan", itemKey: "a" } };
    const started = { stepPath: "fan[a].work", stepId: "work", attempt: 1, attemptId: "attempt_1", startedAt: "2026-12-07T00:00:00.000Z" };
    const fromText = new RunStateFolder({ runId: "run-built" });
    fromText.apply(event(1, "StepScheduled", JSON.parse(JSON.stringify(scheduled))));
    fromText.apply(event(2, "StepAttemptStarted", JSON.parse(JSON.stringify(started))));
    const fromBuilt = new RunStateFolder({ runId: "run-built" });
    // The envelope's own payload is not read when the built one is given.
    fromBuilt.apply(event(1, "StepScheduled", undefined), scheduled);
    fromBuilt.apply(event(2, "StepAttemptStarted", undefined), started);
    expect(fromBuilt.snapshot()).toEqual(fromText.snapshot());
    expect(fromBuilt.step("fan[a].work")).toMatchObject({ status: "running", attempts: 1, attemptStartedSequence: 2, parallel: { groupPath: "fan", itemKey: "a" } });
    scheduled.parallel.itemKey = "changed later";
    expect(fromBuilt.step("fan[a].work")?.parallel?.itemKey).toBe("a");
  });

  it("counts a tool call once, at its first event: started and settled, settled alone (a direct step's), or still in flight", () => {
    const event = (sequence: number, type: string, payload: unknown) => ({ eventId: `evt_${sequence}`, runId: "run-calls", sequence, type, recordedAt: "2026-12-07T00:00:00.000Z", payload });
    const call = (callId: string, caller: string) => ({ callId, caller, toolName: "lookup", args: {} });
    const folder = new RunStateFolder({ runId: "run-calls" });
    folder.apply(event(1, "harness.tool_call.started", call("tcall_a", "model")));
    folder.apply(event(2, "harness.tool_call.succeeded", { ...call("tcall_a", "model"), result: 1, durationMs: 0 }));
    folder.apply(event(3, "harness.tool_call.succeeded", { ...call("tcall_b", "code"), result: 2, durationMs: 0 }));
    folder.apply(event(4, "harness.tool_call.failed", { ...call("tcall_c", "code"), error: { name: "Error", message: "no" }, durationMs: 0 }));
    folder.apply(event(5, "harness.tool_call.started", call("tcall_d", "code")));
    expect(folder.snapshot().harness).toMatchObject({ toolCalls: 4, codeToolCalls: 3 });
  });

  it("folding one event at a time gives the same state as materializing the whole log, at every prefix", async () => {
    const { result } = await loopRun();
    const folder = new RunStateFolder({ runId: "run-state" });
    for (let index = 0; index < result.events.length; index += 1) {
      folder.apply(result.events[index]!);
      if (index % 5 === 0 || index === result.events.length - 1) {
        expect(folder.snapshot()).toEqual(materializeRunState(result.events.slice(0, index + 1)));
      }
    }
    const state = folder.snapshot();
    expect(state.status).toBe("completed");
    expect(state.workflowVersionId).toBe(result.workflowVersionId);
    expect(state.input).toEqual({ n: 0 });
    expect(state.output).toEqual(result.output);
    expect(state.terminalStepPath).toBe("finish");
    expect(Object.keys(state.steps)).toEqual(["bump.visit[0]", "check.visit[0]", "bump.visit[1]", "check.visit[1]", "finish"]);
    expect(state.steps["check.visit[1]"]).toMatchObject({ status: "completed", attempts: 1, output: { chosen: "finish" }, uses: "decision" });
    expect(state.harness).toMatchObject({ sessions: 5, toolCalls: 3, codeToolCalls: 3, modelCalls: 0 });
    expect(state.eventCount).toBe(result.events.length);
  });

  it("replayRun is pure: it appends nothing", async () => {
    const { world, result } = await loopRun();
    const state = await replayRun(world, "run-state");
    expect(state.status).toBe("completed");
    expect((await world.listEvents("run-state")).length).toBe(result.events.length);
    expect((await replayRun(world, "never-ran")).status).toBe("not_started");
  });

  it("refuses a log with a gap or an event for a step that was never scheduled", async () => {
    const { result } = await loopRun();
    const gap = [...result.events.slice(0, 3), ...result.events.slice(4)];
    expect(() => materializeRunState(gap)).toThrow(RunLogCorruptError);
    const orphan = [result.events[0]!, result.events[1]!, { ...result.events[1]!, sequence: 3, type: "StepCompleted", payload: { stepPath: "ghost", stepId: "ghost", attempt: 1, outputRef: "x", artifactRefs: [], metadata: {} } }];
    expect(() => materializeRunState(orphan)).toThrow(/ghost, which was never scheduled/);
  });

  it("records a failed step's error and the run's failure cause", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    const steps = [{ id: "boom", uses: "tool.call", with: { tool: "explode" }, output: { mode: "json" } }] as LwirStep[];
    await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["explode"] })), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-failed-state" }).catch(() => undefined);
    const state = await replayRun(world, "run-failed-state");
    expect(state.status).toBe("failed");
    expect(state.steps.boom).toMatchObject({ status: "failed", attempts: 1, error: { causeCode: "step_failed", retriable: true } });
    expect(state.failure).toMatchObject({ causeCode: "step_failed", failedStepPath: "boom" });
  });
});
