import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { counterLoop } from "../__fixtures__/loop-workflows.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

function completedPaths(events: readonly { type: string; payload: unknown }[]): string[] {
  return events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepPath: string }).stepPath);
}

describe("decisions and loops", () => {
  it("executes a back-edge with visit-indexed step paths, lastOutput and allVisits", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const lwir = lwirDocument({ steps: counterLoop({ until: 3, maxVisits: 5 }), tools: ["increment", "echo"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-loop" });
    expect(completedPaths(result.events)).toEqual([
      "bump.visit[0]",
      "check.visit[0]",
      "bump.visit[1]",
      "check.visit[1]",
      "bump.visit[2]",
      "check.visit[2]",
      "finish",
    ]);
    expect(result.output).toEqual({ final: 3, visits: 3 });
    const decisions = result.events
      .filter((event) => event.type === "StepCompleted" && (event.payload as { stepId: string }).stepId === "check")
      .map((event) => (event.payload as { output: unknown }).output);
    expect(decisions).toEqual([{ chosen: "bump" }, { chosen: "bump" }, { chosen: "finish" }]);
    expect(calls.filter((call) => call.name === "increment").length).toBe(3);
    const state = await replayRun(world, "run-loop");
    expect(state.steps["bump.visit[2]"]).toMatchObject({ status: "completed", visitIndex: 2, output: { n: 3 } });
  });

  it("fails with max_visits_exceeded naming the visit that would overshoot", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    const lwir = lwirDocument({ steps: counterLoop({ until: 10, maxVisits: 2 }), tools: ["increment", "echo"] });
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-overshoot" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("max_visits_exceeded");
    expect(error.failedStepPath).toBe("bump.visit[2]");
    expect(error.result?.error.failedStepPath).toBe("bump.visit[2]");
    const state = await replayRun(world, "run-overshoot");
    expect(state.failure).toMatchObject({ causeCode: "max_visits_exceeded", failedStepPath: "bump.visit[2]" });
  });

  it("routes forward, dropping the unchosen target, and \"end\" ends the run", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const steps = [
      { id: "start", uses: "tool.call", with: { tool: "echo", args: { big: "{{ input.big }}" } }, output: { mode: "object", schema: { type: "object" } } },
      { id: "route", uses: "decision", needs: ["start"], with: { cases: [{ when: "{{ steps.start.output.big }}", to: "large" }, { when: "{{ coalesce(input.stop, false) }}", to: "end" }], default: "small" } },
      { id: "large", uses: "tool.call", with: { tool: "echo", args: { size: "large" } }, output: { mode: "object", schema: { type: "object" } } },
      { id: "small", uses: "tool.call", with: { tool: "echo", args: { size: "small" } }, output: { mode: "object", schema: { type: "object" } } },
    ] as LwirStep[];
    const workflowVersion = versionOf(lwirDocument({ steps, tools: ["echo"] }));
    const large = await executeWorkflowVersion({ world, workflowVersion, input: { big: true }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-large" });
    expect(large.output).toEqual({ size: "large" });
    expect(completedPaths(large.events)).toEqual(["start", "route", "large"]);
    const small = await executeWorkflowVersion({ world, workflowVersion, input: { big: false }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-small" });
    expect(small.output).toEqual({ size: "small" });
    const ended = await executeWorkflowVersion({ world, workflowVersion, input: { big: false, stop: true }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-end" });
    expect(completedPaths(ended.events)).toEqual(["start", "route"]);
    // No terminal step ran: the run output is the last non-decision step that completed.
    expect(ended.output).toEqual({ big: false });
    expect(calls.length).toBe(5);
  });

  it("applies the decision validator rules at run time: an out-of-scope target is refused before anything is written", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    const steps = [
      { id: "a", uses: "tool.call", with: { tool: "echo" }, output: { mode: "json" } },
      { id: "d", uses: "decision", needs: ["a"], with: { cases: [{ when: "{{ true }}", to: "nowhere" }] } },
    ] as unknown as LwirStep[];
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["echo"] })), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-bad-decision" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("runtime_config_error");
    expect(error.message).toContain("decision.target_not_in_scope");
    expect(error.message).toContain("decision.default_required");
    expect(await world.listEvents("run-bad-decision")).toEqual([]);
  });
});
