import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

// A chain of steps whose tool answers at once never waits on I/O: each step is promise callbacks
// only. These runs are long enough (thousands of steps) that a run keeping the event loop to
// itself would end before any timer fires.
const chain = (length: number): LwirStep[] =>
  Array.from({ length }, (_, index) => ({
    id: `s${index}`,
    uses: "tool.call",
    ...(index === 0 ? {} : { needs: [`s${index - 1}`] }),
    with: { tool: "increment", args: { n: index } },
    output: { mode: "object", schema: { type: "object" } },
  })) as LwirStep[];

describe("a run of steps that never wait on I/O gives the event loop its turns", () => {
  it("lets a timer set before the run fire while the run's steps still run", async () => {
    const { registry, calls } = countingTools();
    const length = 3_000;
    let callsWhenTimerFired: number | undefined;
    setTimeout(() => (callsWhenTimerFired = calls.length), 0);
    const lwir = lwirDocument({ steps: chain(length), tools: ["increment"] });
    await executeWorkflowVersion({ world: memoryWorld(), workflowVersion: versionOf(lwir), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-turns" });
    expect(calls).toHaveLength(length);
    // Fired mid-run: after the run started its steps, long before its last one.
    expect(callsWhenTimerFired).toBeDefined();
    expect(callsWhenTimerFired!).toBeLessThan(length / 2);
  });

  it("ends the run cancelled when an AbortSignal.timeout fires during a long chain of instant steps", async () => {
    const { registry, calls } = countingTools();
    const length = 20_000;
    const lwir = lwirDocument({ steps: chain(length), tools: ["increment"] });
    const world = memoryWorld();
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), signal: AbortSignal.timeout(20), runId: "run-abort-turns" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("cancelled");
    expect(calls.length).toBeLessThan(length);
    expect((await world.listEvents("run-abort-turns")).at(-1)!.type).toBe("RunFailed");
  });
});
