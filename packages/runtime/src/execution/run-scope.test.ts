import { memoryWorld, type World } from "@little-stack/local-world";
import { harnessSessionId } from "@little-stack/harness";
import { validateLwir, type LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { concurrencyTools, countingTools } from "../__fixtures__/test-tools.js";
import { fanInSchema, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import type { EventRecord } from "../events/runtime-event-types.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

const object = { mode: "object", schema: { type: "object" } } as const;
const counter = { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } } as const;

const work = (id: string, options: { together?: number; needs?: string[] } = {}): LwirStep =>
  ({
    id,
    uses: "tool.call",
    ...(options.needs === undefined ? {} : { needs: options.needs }),
    with: { tool: "work", args: { name: id, ...(options.together === undefined ? {} : { together: options.together }) } },
    output: object,
  }) as LwirStep;

const payloadOf = <T>(event: EventRecord): T => event.payload as T;
const sequenceOf = (events: readonly EventRecord[], type: string, stepPath: string): number =>
  events.find((event) => event.type === type && payloadOf<{ stepPath?: string }>(event).stepPath === stepPath)?.sequence ?? Number.NaN;
const completedPaths = (events: readonly EventRecord[]): string[] => events.filter((event) => event.type === "StepCompleted").map((event) => payloadOf<{ stepPath: string }>(event).stepPath);

function run(options: { world: World; steps: readonly LwirStep[]; tools: ReturnType<typeof concurrencyTools>["registry"]; runId: string; input?: unknown }) {
  const lwir = lwirDocument({ steps: options.steps, tools: ["work", "hang", "fail", "increment", "echo"] });
  const validation = validateLwir(lwir);
  expect(validation.findings).toEqual([]);
  return executeWorkflowVersion({ world: options.world, workflowVersion: versionOf(lwir), input: options.input ?? {}, tools: options.tools, workerHarness: createFakeWorkerHarness(), runId: options.runId });
}

describe("steps outside parallel groups run as soon as their needs are complete", () => {
  it("starts three independent steps at once and the step needing all three after them", async () => {
    const { registry, gauge } = concurrencyTools();
    const steps = [work("a", { together: 3 }), work("b", { together: 3 }), work("c", { together: 3 }), work("judge", { needs: ["a", "b", "c"] })];
    const result = await run({ world: memoryWorld(), steps, tools: registry, runId: "run-three" });
    // Each of the three waited until all three were in flight: run one after another, none would have been.
    for (const id of ["a", "b", "c"]) expect(result.events.find((event) => event.type === "StepCompleted" && payloadOf<{ stepPath: string }>(event).stepPath === id)!.payload).toMatchObject({ output: { name: id, together: true } });
    expect(gauge.peak).toBe(3);
    const judgeStarted = sequenceOf(result.events, "StepAttemptStarted", "judge");
    for (const id of ["a", "b", "c"]) expect(sequenceOf(result.events, "StepCompleted", id)).toBeLessThan(judgeStarted);
    expect(result.output).toEqual({ name: "judge", together: true });
  });

  it("holds at most maxConcurrentSteps attempts in flight, starting them in LWIR order", async () => {
    const { registry, gauge } = concurrencyTools();
    const ids = ["s0", "s1", "s2", "s3", "s4"];
    const steps = [...ids.map((id) => work(id, { together: 2 })), work("join", { needs: ids })];
    const result = await run({ world: memoryWorld({ maxConcurrentSteps: 2 }), steps, tools: registry, runId: "run-bounded" });
    expect(gauge.peak).toBe(2);
    const started = result.events.filter((event) => event.type === "StepAttemptStarted").map((event) => payloadOf<{ stepPath: string }>(event).stepPath);
    expect(started).toEqual([...ids, "join"]);
  });

  it("shares one maxConcurrentSteps budget between independent steps and parallel branches", async () => {
    const { registry, gauge } = concurrencyTools();
    const steps = [
      work("solo", { together: 3 }),
      {
        id: "fan",
        uses: "parallel",
        with: { items: "{{ input.items }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 4, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "branch", uses: "tool.call", with: { tool: "work", args: { name: "{{ item }}", together: 3 } }, output: object }],
        output: { mode: "array", schema: fanInSchema },
      },
      work("join", { needs: ["solo", "fan"] }),
    ] as LwirStep[];
    const result = await run({ world: memoryWorld({ maxConcurrentSteps: 3 }), steps, tools: registry, runId: "run-shared-budget", input: { items: ["w", "x", "y", "z"] } });
    expect(gauge.peak).toBe(3);
    expect(result.output).toEqual({ name: "join", together: true });
  });

  it("gives every attempt its own abort signal: no MaxListenersExceededWarning with 12 steps in flight", async () => {
    const { registry, gauge } = concurrencyTools();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const ids = Array.from({ length: 12 }, (_, index) => `w${index}`);
      const steps = [...ids.map((id) => work(id, { together: 12 })), work("join", { needs: ids })];
      await run({ world: memoryWorld({ maxConcurrentSteps: 12 }), steps, tools: registry, runId: "run-twelve" });
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(gauge.peak).toBe(12);
    expect(new Set(gauge.signals).size).toBe(13);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});

describe("a terminal failure outside parallel groups", () => {
  const failing = (): LwirStep[] => [
    { id: "slow", uses: "tool.call", with: { tool: "hang", args: { name: "slow" } }, output: object },
    { id: "boom", uses: "tool.call", with: { tool: "fail", args: { name: "boom", whenStarted: "slow" } }, output: object },
    work("after", { needs: ["slow", "boom"] }),
  ] as LwirStep[];

  it("cancels the steps in flight through their abort signal, records them cancelled and fails the run with the first failure", async () => {
    const world = memoryWorld();
    const { registry, gauge } = concurrencyTools();
    const error = (await run({ world, steps: failing(), tools: registry, runId: "run-fail-fast" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_failed");
    expect(error.failedStepPath).toBe("boom");
    expect(gauge.aborted).toEqual(["slow"]);
    const events = await world.listEvents("run-fail-fast");
    const slowFailed = events.find((event) => event.type === "StepFailed" && payloadOf<{ stepPath: string }>(event).stepPath === "slow")!;
    expect(slowFailed.payload).toMatchObject({
      error: { name: "StepCancelledError", causeCode: "cancelled", retriable: false, code: "runtime.step_cancelled" },
      cancelledBy: { causeCode: "step_failed", failedStepPath: "boom", error: { message: expect.stringContaining("boom failed on purpose") } },
    });
    // The cancelled session is ended, with the cancellation, rather than left open.
    const slowSession = harnessSessionId({ runId: "run-fail-fast", sessionKey: "step:slow@attempt_1" });
    const slowSessionEnd = events.filter((event) => event.type.startsWith("harness.session.") && payloadOf<{ sessionId?: string }>(event).sessionId === slowSession).map((event) => event.type);
    expect(slowSessionEnd).toEqual(["harness.session.started", "harness.session.failed"]);
    expect(events.some((event) => payloadOf<{ stepPath?: string }>(event).stepPath === "after")).toBe(false);
    expect(events.at(-1)!.payload).toMatchObject({ error: { causeCode: "step_failed", failedStepPath: "boom" } });
  });

  it("resumed after a crash at any point, fails with the same failure without calling a recorded tool again", async () => {
    const reference = await run({ world: memoryWorld(), steps: failing(), tools: concurrencyTools().registry, runId: "run-ref" }).catch((caught: unknown) => caught as RunFailedError);
    const total = (reference as RunFailedError).result!.events.length;
    for (let survive = 1; survive < total; survive += 1) {
      const inner = memoryWorld();
      const first = concurrencyTools();
      // The crash lands where it lands: the run may even have recorded its failure after it.
      const crashed = await run({ world: crashingWorld(inner, survive), steps: failing(), tools: first.registry, runId: "run-crash" }).catch((caught: unknown) => caught as Error);
      if (!/simulated crash/.test(String(crashed))) expect((crashed as RunFailedError).failedStepPath, `crash after ${survive} events`).toBe("boom");
      const recorded = await inner.listEvents("run-crash");
      const second = concurrencyTools();
      const error = (await run({ world: inner, steps: failing(), tools: second.registry, runId: "run-crash" }).catch((caught: unknown) => caught)) as RunFailedError;
      expect([error.causeCode, error.failedStepPath], `crash after ${survive} events`).toEqual(["step_failed", "boom"]);
      // A step whose end was recorded is never called again; only what was in flight runs again.
      const ended = new Set(recorded.filter((event) => event.type === "StepFailed").map((event) => payloadOf<{ stepPath: string }>(event).stepPath));
      for (const name of second.gauge.started) expect(ended.has(name), `crash after ${survive} events: ${name} called again`).toBe(false);
      const events = await inner.listEvents("run-crash");
      expect(events.filter((event) => event.type === "RunFailed"), `crash after ${survive} events`).toHaveLength(1);
    }
  });
});

describe("a failure beside a parallel group in flight", () => {
  const beside = (): LwirStep[] =>
    [
      {
        id: "fan",
        uses: "parallel",
        retry: { maxAttempts: 3 },
        with: { items: "{{ input.items }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "wait", uses: "tool.call", with: { tool: "hang", args: { name: "{{ item }}" } }, output: object }],
        output: { mode: "array", schema: fanInSchema },
      },
      { id: "boom", uses: "tool.call", retry: { maxAttempts: 2 }, with: { tool: "fail", args: { name: "boom", whenStarted: "y" } }, output: object },
      work("join", { needs: ["fan", "boom"] }),
    ] as LwirStep[];
  const groupRecords = (events: readonly EventRecord[]) => events.filter((event) => ["ParallelBranchFailed", "ParallelGroupFailed"].includes(event.type) || (event.type === "StepFailed" && payloadOf<{ stepPath: string }>(event).stepPath === "fan"));

  it("cancels the group's branches (the group neither fails nor retries), and a resume before RunFailed fails the same way", async () => {
    const reference = (await run({ world: memoryWorld(), steps: beside(), tools: concurrencyTools().registry, runId: "run-beside", input: { items: ["x", "y"] } }).catch((caught: unknown) => caught)) as RunFailedError;
    expect([reference.causeCode, reference.failedStepPath]).toEqual(["step_failed", "boom"]);
    const events = reference.result!.events;
    for (const path of ["fan[x].wait", "fan[y].wait"]) {
      const failed = events.find((event) => event.type === "StepFailed" && payloadOf<{ stepPath: string }>(event).stepPath === path)!;
      expect(failed.payload, path).toMatchObject({ error: { causeCode: "cancelled" }, cancelledBy: { failedStepPath: "boom" } });
    }
    expect(groupRecords(events)).toEqual([]);
    // Crash before RunFailed: resuming meets the branches' cancellations first; they name boom,
    // which is not a step of their branch, so the group passes them up instead of failing (and
    // retrying) itself.
    const inner = memoryWorld();
    await expect(run({ world: crashingWorld(inner, events.length - 1), steps: beside(), tools: concurrencyTools().registry, runId: "run-beside", input: { items: ["x", "y"] } })).rejects.toThrow(/simulated crash/);
    const second = concurrencyTools();
    const resumed = (await run({ world: inner, steps: beside(), tools: second.registry, runId: "run-beside", input: { items: ["x", "y"] } }).catch((caught: unknown) => caught)) as RunFailedError;
    expect([resumed.causeCode, resumed.failedStepPath]).toEqual(["step_failed", "boom"]);
    expect(second.gauge.started).toEqual([]);
    expect(groupRecords(await inner.listEvents("run-beside"))).toEqual([]);
  });
});

describe("a failure of the scheduler itself, with steps in flight", () => {
  const overshooting = (): LwirStep[] =>
    [
      { id: "slow", uses: "tool.call", with: { tool: "hang", args: { name: "slow" } }, output: object },
      { id: "bump", uses: "tool.call", maxVisits: 2, with: { tool: "increment", args: { n: "{{ coalesce(steps.bump.lastOutput.n, 0) }}" } }, output: counter },
      { id: "check", uses: "decision", needs: ["bump"], maxVisits: 2, with: { cases: [{ when: "{{ steps.bump.lastOutput.n < 10 }}", to: "bump" }], default: "done" } },
      { id: "done", uses: "tool.call", with: { tool: "echo", args: { n: "{{ steps.bump.lastOutput.n }}" } }, output: object },
      work("join", { needs: ["slow"] }),
    ] as LwirStep[];

  it("max_visits_exceeded cancels the step in flight, and a resume after a crash before RunFailed fails the same way", async () => {
    const inner = memoryWorld();
    const reference = (await run({ world: memoryWorld(), steps: overshooting(), tools: concurrencyTools().registry, runId: "run-overshoot" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect([reference.causeCode, reference.failedStepPath], reference.message).toEqual(["max_visits_exceeded", "bump.visit[2]"]);
    const slowFailed = reference.result!.events.find((event) => event.type === "StepFailed" && payloadOf<{ stepPath: string }>(event).stepPath === "slow")!;
    expect(slowFailed.payload).toMatchObject({ error: { causeCode: "cancelled" }, cancelledBy: { causeCode: "max_visits_exceeded", failedStepPath: "bump.visit[2]" } });
    // Everything but RunFailed survives the crash. Nothing recorded says the loop overshot except
    // slow's cancelledBy, and slow is the first step the resumed scheduler meets.
    const total = reference.result!.events.length;
    await expect(run({ world: crashingWorld(inner, total - 1), steps: overshooting(), tools: concurrencyTools().registry, runId: "run-overshoot" })).rejects.toThrow(/simulated crash/);
    const second = concurrencyTools();
    const resumed = (await run({ world: inner, steps: overshooting(), tools: second.registry, runId: "run-overshoot" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect([resumed.causeCode, resumed.failedStepPath]).toEqual(["max_visits_exceeded", "bump.visit[2]"]);
    expect(second.gauge.started).toEqual([]);
  });
});

describe("graphs: loops, decisions and independent steps side by side", () => {
  it("resumes a diamond at every crash point with the same output, re-running only calls in flight", async () => {
    const steps = [
      { id: "top", uses: "tool.call", with: { tool: "increment", args: { n: "{{ input.n }}" } }, output: counter },
      ...["left", "middle", "right"].map((id) => ({ id, uses: "tool.call", needs: ["top"], with: { tool: "increment", args: { n: "{{ steps.top.output.n }}" } }, output: counter })),
      { id: "bottom", uses: "tool.call", needs: ["left", "middle", "right"], with: { tool: "echo", args: { sum: ["{{ steps.left.output.n }}", "{{ steps.middle.output.n }}", "{{ steps.right.output.n }}"] } }, output: object },
    ] as LwirStep[];
    const lwir = lwirDocument({ steps, tools: ["increment", "echo"] });
    const reference = await executeWorkflowVersion({ world: memoryWorld(), workflowVersion: versionOf(lwir), input: { n: 1 }, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-ref" });
    expect(reference.output).toEqual({ sum: [3, 3, 3] });
    for (let survive = 1; survive < reference.events.length; survive += 1) {
      const world = memoryWorld();
      const { registry, calls } = countingTools();
      const execute = (target: World) => executeWorkflowVersion({ world: target, workflowVersion: versionOf(lwir), input: { n: 1 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-crash" });
      await expect(execute(crashingWorld(world, survive))).rejects.toThrow(/simulated crash/);
      const resumed = await execute(world);
      expect(resumed.output, `crash after ${survive} events`).toEqual(reference.output);
      const succeeded = resumed.events.filter((event) => event.type === "harness.tool_call.succeeded").length;
      expect(succeeded).toBe(5);
      // At most the three middle calls were in flight at the crash.
      expect(calls.length - succeeded, `crash after ${survive} events`).toBeLessThanOrEqual(3);
      const paths = completedPaths(resumed.events);
      expect(new Set(paths).size).toBe(paths.length);
    }
  });

  it("runs an independent step beside a loop, and a step needing the loop once, on its last visit", async () => {
    const { registry } = countingTools();
    const world = memoryWorld();
    const steps = [
      { id: "bump", uses: "tool.call", maxVisits: 5, with: { tool: "increment", args: { n: "{{ coalesce(steps.bump.lastOutput.n, input.n) }}" } }, output: counter },
      { id: "check", uses: "decision", needs: ["bump"], maxVisits: 5, with: { cases: [{ when: "{{ steps.bump.lastOutput.n < 3 }}", to: "bump" }], default: "finish" } },
      { id: "tally", uses: "tool.call", needs: ["bump"], with: { tool: "echo", args: { seen: "{{ steps.bump.lastOutput.n }}" } }, output: object },
      { id: "aside", uses: "tool.call", with: { tool: "echo", args: { aside: true } }, output: object },
      { id: "finish", uses: "tool.call", with: { tool: "echo", args: { final: "{{ steps.bump.lastOutput.n }}" } }, output: object },
      { id: "join", uses: "tool.call", needs: ["tally", "aside"], with: { tool: "echo", args: { seen: "{{ steps.tally.output.seen }}", aside: "{{ steps.aside.output.aside }}" } }, output: object },
    ] as LwirStep[];
    const lwir = lwirDocument({ steps, tools: ["increment", "echo"] });
    expect(validateLwir(lwir).findings).toEqual([]);
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-side" });
    const paths = completedPaths(result.events);
    // tally needs bump but does not lead to check: it waits for the loop and runs once, on n = 3.
    expect(paths.filter((path) => path.startsWith("tally"))).toEqual(["tally"]);
    expect(result.events.find((event) => event.type === "StepCompleted" && payloadOf<{ stepPath: string }>(event).stepPath === "tally")!.payload).toMatchObject({ output: { seen: 3 } });
    expect(sequenceOf(result.events, "StepAttemptStarted", "tally")).toBeGreaterThan(sequenceOf(result.events, "StepCompleted", "check.visit[2]"));
    // aside needs nothing: it starts with the loop's first visit, not after it.
    expect(sequenceOf(result.events, "StepAttemptStarted", "aside")).toBeLessThan(sequenceOf(result.events, "StepCompleted", "bump.visit[0]"));
    expect(paths.filter((path) => path.startsWith("bump") || path.startsWith("check"))).toEqual(["bump.visit[0]", "check.visit[0]", "bump.visit[1]", "check.visit[1]", "bump.visit[2]", "check.visit[2]"]);
    expect(result.output).toEqual({ seen: 3, aside: true });
  });

  it("two loops back to one step, each holding the other's steps, go ahead in LWIR order instead of waiting forever", async () => {
    const steps = [
      { id: "t", uses: "tool.call", maxVisits: 4, with: { tool: "increment", args: { n: "{{ coalesce(steps.t.lastOutput.n, 0) }}" } }, output: counter },
      { id: "d1", uses: "decision", needs: ["t"], maxVisits: 4, with: { cases: [{ when: "{{ steps.t.lastOutput.n < 2 }}", to: "t" }], default: "end" } },
      { id: "x", uses: "tool.call", needs: ["t"], maxVisits: 4, with: { tool: "echo", args: { n: "{{ steps.t.lastOutput.n }}" } }, output: object },
      { id: "d2", uses: "decision", needs: ["x"], maxVisits: 4, with: { cases: [{ when: "{{ steps.x.lastOutput.n < 0 }}", to: "t" }], default: "end" } },
    ] as LwirStep[];
    const result = await run({ world: memoryWorld(), steps, tools: concurrencyTools().registry, runId: "run-two-loops" });
    // d1 is held by d2's loop and x by d1's: with nothing else left, d1 (first in LWIR order) goes
    // ahead, loops back once, then ends its path, which drops x (waiting for its loop) and d2.
    expect(completedPaths(result.events)).toEqual(["t.visit[0]", "d1.visit[0]", "t.visit[1]", "d1.visit[1]"]);
    expect(result.output).toEqual({ n: 2 });
  });

  it('"end" drops what follows the decision and lets independent work finish', async () => {
    const { registry, gauge } = concurrencyTools();
    const world = memoryWorld();
    const steps = [
      work("a", { together: 2 }),
      { id: "route", uses: "decision", needs: ["a"], with: { cases: [{ when: "{{ true }}", to: "end" }], default: "next" } },
      work("next"),
      work("beside", { together: 2 }),
    ] as LwirStep[];
    const result = await run({ world, steps, tools: registry, runId: "run-end-beside" });
    expect(completedPaths(result.events).sort()).toEqual(["a", "beside", "route"]);
    expect(gauge.started).not.toContain("next");
    expect(result.output).toEqual({ name: "beside", together: true });
  });
});
