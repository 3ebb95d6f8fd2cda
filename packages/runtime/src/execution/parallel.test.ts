import { createToolRegistry } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { recordingWorld } from "../__fixtures__/recording-world.js";
import { fanInSchema, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";


/** A tool that records how many calls are in flight at once and can be told to fail. */
function gaugedTools() {
  let inFlight = 0;
  const gauge = { peak: 0, calls: [] as string[] };
  const registry = createToolRegistry({
    work: tool({
      description: "Slow work on one item.",
      inputSchema: z.object({ name: z.string(), fail: z.boolean().optional() }),
      execute: async ({ name, fail }) => {
        inFlight += 1;
        gauge.peak = Math.max(gauge.peak, inFlight);
        gauge.calls.push(name);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight -= 1;
        if (fail === true) throw new Error(`work failed for ${name}`);
        return { done: name };
      },
    }),
    shout: tool({
      description: "Upper-cases.",
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => ({ text: text.toUpperCase() }),
    }),
  });
  return { registry, gauge };
}

function fanOut(options: { failureMode: "fail_fast" | "all_settled"; order: "input" | "itemKey"; maxConcurrency: number; outputStep?: string }): LwirStep[] {
  return [
    {
      id: "fan",
      uses: "parallel",
      with: {
        items: "{{ input.items }}",
        itemKey: "{{ item.name }}",
        cardinality: { kind: "matches_items" },
        maxBranches: 10,
        maxConcurrency: options.maxConcurrency,
        failureMode: options.failureMode,
        fanIn: { order: options.order, output: "array", ...(options.outputStep === undefined ? {} : { outputStep: options.outputStep }) },
      },
      steps: [
        { id: "work", uses: "tool.call", with: { tool: "work", args: { name: "{{ item.name }}", fail: "{{ coalesce(item.fail, false) }}" } }, output: { mode: "object", schema: { type: "object" } } },
        { id: "shout", uses: "tool.call", needs: ["work"], with: { tool: "shout", args: { text: "{{ steps.work.output.done }}" } }, output: { mode: "object", schema: { type: "object" } } },
      ],
      output: { mode: "array", schema: fanInSchema },
    },
  ] as LwirStep[];
}

const items = [{ name: "c" }, { name: "a.b" }, { name: "b" }, { name: "d" }];

describe("parallel groups", () => {
  it("runs bounded branches with branch step paths, fan-in in itemKey order and the last step's output", async () => {
    const world = memoryWorld();
    const { registry, gauge } = gaugedTools();
    const lwir = lwirDocument({ steps: fanOut({ failureMode: "fail_fast", order: "itemKey", maxConcurrency: 2 }), tools: ["work", "shout"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-fan" });
    const output = result.output as { itemKey: string; status: string; output: unknown }[];
    expect(output.map((entry) => entry.itemKey)).toEqual(["a.b", "b", "c", "d"]);
    expect(output[0]).toMatchObject({ itemKey: "a.b", status: "completed", output: { text: "A.B" }, artifacts: [] });
    expect(gauge.peak).toBe(2);
    const paths = result.events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepPath: string }).stepPath);
    expect(paths).toContain("fan[a%2Eb].work");
    expect(paths).toContain("fan[a%2Eb].shout");
    expect(paths.at(-1)).toBe("fan");
    const types = new Set(result.events.map((event) => event.type));
    for (const type of ["ParallelGroupStarted", "ParallelBranchScheduled", "ParallelBranchCompleted", "ParallelGroupCompleted"]) expect(types.has(type)).toBe(true);
    const state = await replayRun(world, "run-fan");
    expect(state.parallelGroups.fan?.status).toBe("completed");
    expect(Object.keys(state.parallelGroups.fan!.branches).sort()).toEqual(["a.b", "b", "c", "d"]);
  });

  it("fans in by input order and takes fanIn.outputStep's output", async () => {
    const world = memoryWorld();
    const { registry } = gaugedTools();
    const lwir = lwirDocument({ steps: fanOut({ failureMode: "fail_fast", order: "input", maxConcurrency: 4, outputStep: "work" }), tools: ["work", "shout"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-output-step" });
    const output = result.output as { itemKey: string; output: unknown }[];
    expect(output.map((entry) => entry.itemKey)).toEqual(["c", "a.b", "b", "d"]);
    expect(output.map((entry) => entry.output)).toEqual([{ done: "c" }, { done: "a.b" }, { done: "b" }, { done: "d" }]);
  });

  it("caps in-flight step attempts across the run at the world's maxConcurrentSteps", async () => {
    const world = memoryWorld({ maxConcurrentSteps: 1 });
    const { registry, gauge } = gaugedTools();
    const lwir = lwirDocument({ steps: fanOut({ failureMode: "fail_fast", order: "input", maxConcurrency: 4 }), tools: ["work", "shout"] });
    await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-capped" });
    expect(gauge.peak).toBe(1);
  });

  it("all_settled returns failed entries beside completed ones", async () => {
    const world = memoryWorld();
    const { registry } = gaugedTools();
    const lwir = lwirDocument({ steps: fanOut({ failureMode: "all_settled", order: "input", maxConcurrency: 2 }), tools: ["work", "shout"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items: [{ name: "x" }, { name: "y", fail: true }] }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-settled" });
    const output = result.output as { itemKey: string; status: string; error?: { message: string } }[];
    expect(output.map((entry) => [entry.itemKey, entry.status])).toEqual([["x", "completed"], ["y", "failed"]]);
    expect(output[1]!.error!.message).toContain("work failed for y");
    expect(result.events.some((event) => event.type === "ParallelBranchFailed")).toBe(true);
  });

  it("fail_fast starts no new branch after a failure and fails the run at the failing branch step", async () => {
    const world = memoryWorld();
    const { registry, gauge } = gaugedTools();
    const lwir = lwirDocument({ steps: fanOut({ failureMode: "fail_fast", order: "input", maxConcurrency: 1 }), tools: ["work", "shout"] });
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items: [{ name: "x", fail: true }, { name: "y" }, { name: "z" }] }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-fast" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_failed");
    expect(error.failedStepPath).toBe("fan[x].work");
    expect(gauge.calls).toEqual(["x"]);
    const types = error.result!.events.map((event) => event.type);
    expect(types).toContain("ParallelGroupFailed");
    expect(types.at(-1)).toBe("RunFailed");
  });
});

describe("a group's fan-in commits with the run's next boundary", () => {
  /** fan (work per item) → after (shout on the fan-in's first output). */
  const fanThenAfter = (): LwirStep[] => [
    ...fanOut({ failureMode: "fail_fast", order: "input", maxConcurrency: 4, outputStep: "work" }),
    { id: "after", uses: "tool.call", needs: ["fan"], with: { tool: "shout", args: { text: "{{ steps.fan.output[0].output.done }}" } }, output: { mode: "object", schema: { type: "object" } } },
  ] as LwirStep[];
  const stepCompleted = (path: string) => (event: { type: string; payload?: unknown }) => event.type === "StepCompleted" && (event.payload as { stepPath: string }).stepPath === path;
  const completedIn = (path: string) => (event: { type: string; stepPath: string | undefined }) => event.type === "StepCompleted" && event.stepPath === path;

  it("stores the group's StepCompleted in the same transaction as the next step's result, not in one of its own", async () => {
    const { world, transactions } = recordingWorld(memoryWorld());
    const { registry } = gaugedTools();
    const lwir = lwirDocument({ steps: fanThenAfter(), tools: ["work", "shout"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-fan-held" });
    expect(result.output).toEqual({ text: "C" });
    const withFan = transactions.find((batch) => batch.some(completedIn("fan")));
    expect(withFan, "the fan-in was stored").toBeDefined();
    expect(withFan!.some(completedIn("after"))).toBe(true);
    expect(withFan!.some((event) => event.type === "ParallelGroupCompleted")).toBe(true);
  });

  it("resumes a run killed before that transaction without running a branch again, to the same output", async () => {
    const lwir = lwirDocument({ steps: fanThenAfter(), tools: ["work", "shout"] });
    const reference = recordingWorld(memoryWorld());
    const expected = await executeWorkflowVersion({ world: reference.world, workflowVersion: versionOf(lwir), input: { items }, tools: gaugedTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-fan-kill" });
    // Everything before the batch that carries the fan-in survives; that batch is lost.
    const surviving = reference.transactions.slice(0, reference.transactions.findIndex((batch) => batch.some(completedIn("fan")))).flat().length;
    const inner = memoryWorld();
    const { registry, gauge } = gaugedTools();
    const run = (world: typeof inner) => executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-fan-kill" });
    await expect(run(crashingWorld(inner, surviving))).rejects.toThrow();
    expect((await inner.listEvents("run-fan-kill")).some(stepCompleted("fan"))).toBe(false);
    const resumed = await run(inner);
    expect(resumed.output).toEqual(expected.output);
    // Each branch's work ran once, before the kill; the resume derived the fan-in again.
    expect([...gauge.calls].sort()).toEqual(items.map((item) => item.name).sort());
    expect(resumed.events.filter(stepCompleted("fan"))).toHaveLength(1);
  });
});

describe("parallel group retries (retry.maxAttempts on the parallel step)", () => {
  /** `flaky` fails the first call for each name in `failOnce`; `calls` counts calls per name. */
  function flakyTools(failOnce: readonly string[]) {
    const calls = new Map<string, number>();
    const registry = createToolRegistry({
      flaky: tool({
        description: "Fails the first time for some names.",
        inputSchema: z.object({ name: z.string() }),
        execute: async ({ name }) => {
          const count = (calls.get(name) ?? 0) + 1;
          calls.set(name, count);
          if (count === 1 && failOnce.includes(name)) throw new Error(`flaky failed for ${name}`);
          return { done: name };
        },
      }),
    });
    return { registry, calls };
  }

  function retriedGroup(options: { readonly maxAttempts: number; readonly schema?: unknown }): LwirStep[] {
    return [
      {
        id: "fan",
        uses: "parallel",
        retry: { maxAttempts: options.maxAttempts },
        with: {
          items: "{{ input.items }}",
          itemKey: "{{ item }}",
          cardinality: { kind: "matches_items" },
          maxBranches: 10,
          maxConcurrency: 1,
          failureMode: "fail_fast",
          fanIn: { order: "input", output: "array" },
        },
        steps: [{ id: "work", uses: "tool.call", with: { tool: "flaky", args: { name: "{{ item }}" } }, output: { mode: "object", schema: options.schema ?? { type: "object" } } }],
        output: { mode: "array", schema: fanInSchema },
      },
    ] as LwirStep[];
  }

  const completedPaths = (events: readonly { type: string; payload: unknown }[]) =>
    events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepPath: string }).stepPath);

  it("runs the group again: completed branches are reused, the failed and never-started ones run under fan@attempt_2", async () => {
    const world = memoryWorld();
    const { registry, calls } = flakyTools(["b"]);
    const lwir = lwirDocument({ steps: retriedGroup({ maxAttempts: 2 }), tools: ["flaky"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items: ["a", "b", "c"] }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-group-retry" });
    const output = result.output as { itemKey: string; status: string; output: unknown }[];
    expect(output.map((entry) => [entry.itemKey, entry.status, entry.output])).toEqual([
      ["a", "completed", { done: "a" }],
      ["b", "completed", { done: "b" }],
      ["c", "completed", { done: "c" }],
    ]);
    // a ran once (attempt 1, reused by attempt 2); b failed once then ran again; c never started in attempt 1 (fail_fast).
    expect(Object.fromEntries(calls)).toEqual({ a: 1, b: 2, c: 1 });
    expect(completedPaths(result.events)).toEqual(["fan[a].work", "fan@attempt_2[b].work", "fan@attempt_2[c].work", "fan"]);
    const groupAttempts = result.events.filter((event) => event.type === "StepAttemptStarted" && (event.payload as { stepPath: string }).stepPath === "fan");
    expect(groupAttempts.map((event) => (event.payload as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(result.events.filter((event) => event.type === "ParallelGroupFailed")).toHaveLength(1);
    const state = await replayRun(world, "run-group-retry");
    expect(state.parallelGroups.fan?.status).toBe("completed");
    expect(state.parallelGroups.fan!.branches.b!.branchPath).toBe("fan@attempt_2[b]");
  });

  it("resumes at every crash point to the same output, never re-running a completed branch step", async () => {
    const reference = await executeWorkflowVersion({
      world: memoryWorld(),
      workflowVersion: versionOf(lwirDocument({ steps: retriedGroup({ maxAttempts: 2 }), tools: ["flaky"] })),
      input: { items: ["a", "b", "c"] },
      tools: flakyTools(["b"]).registry,
      workerHarness: createFakeWorkerHarness(),
      runId: "run-reference",
    });
    for (let surviving = 1; surviving < reference.events.length; surviving += 1) {
      const inner = memoryWorld();
      const { registry } = flakyTools(["b"]);
      const workflowVersion = versionOf(lwirDocument({ steps: retriedGroup({ maxAttempts: 2 }), tools: ["flaky"] }));
      const run = (world: typeof inner) => executeWorkflowVersion({ world, workflowVersion, input: { items: ["a", "b", "c"] }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-crash" });
      await run(crashingWorld(inner, surviving)).catch(() => undefined);
      const resumed = await run(inner);
      expect(resumed.output, `crash after ${surviving} events`).toEqual(reference.output);
      const paths = completedPaths(resumed.events);
      expect(new Set(paths).size, `crash after ${surviving} events`).toBe(paths.length);
      expect(paths.filter((path) => path.endsWith("[a].work")), `crash after ${surviving} events`).toEqual(["fan[a].work"]);
    }
  });

  it("does not retry a group whose failure is not retriable (a branch output that breaks its schema)", async () => {
    const world = memoryWorld();
    const { registry, calls } = flakyTools([]);
    const schema = { type: "object", properties: { done: { type: "number" } }, required: ["done"] };
    const lwir = lwirDocument({ steps: retriedGroup({ maxAttempts: 3, schema }), tools: ["flaky"] });
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { items: ["a", "b"] }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-no-retry" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_schema_error");
    expect(error.failedStepPath).toBe("fan[a].work");
    expect(Object.fromEntries(calls)).toEqual({ a: 1 });
    const groupAttempts = error.result!.events.filter((event) => event.type === "StepAttemptStarted" && (event.payload as { stepPath: string }).stepPath === "fan");
    expect(groupAttempts).toHaveLength(1);
  });
});
