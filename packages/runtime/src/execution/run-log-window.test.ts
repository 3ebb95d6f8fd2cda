import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localWorld, memoryWorld, type World } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { concurrencyTools, countingTools } from "../__fixtures__/test-tools.js";
import { fanInSchema, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import type { EventRecord } from "../events/runtime-event-types.js";
import { RunStateFolder } from "../run-state/run-state-folder.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import { RunLog } from "./run-log.js";

// The runtime keeps in memory only the tail of a run's log (from the oldest attempt in flight);
// what is older is read from the world when something asks for it. These tests hold it to that:
// whatever comes from memory or from the world, callers see the whole, exact log.

const object = { mode: "object", schema: { type: "object" } } as const;
const chain = (length: number, last?: LwirStep): LwirStep[] => [
  ...Array.from({ length }, (_, index) => ({ id: `s${index}`, uses: "tool.call", ...(index === 0 ? {} : { needs: [`s${index - 1}`] }), with: { tool: "increment", args: { n: index } }, output: object }) as LwirStep),
  ...(last === undefined ? [] : [{ ...last, needs: [`s${length - 1}`] } as LwirStep]),
];

function runChain(world: World, steps: readonly LwirStep[], runId: string) {
  const lwir = lwirDocument({ steps, tools: ["increment", "explode"] });
  return executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: {}, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId });
}

/** A world whose `listEvents` calls are counted (the runtime reading its log back). */
function countingReads(inner: World): { world: World; reads: () => number } {
  let reads = 0;
  const world = Object.create(inner) as World;
  world.listEvents = (runId, options) => {
    reads += 1;
    return inner.listEvents(runId, options);
  };
  return { world, reads: () => reads };
}

describe("a long run's result", () => {
  it("reads its events from the world on first access, the same events the world lists", async () => {
    const world = memoryWorld();
    const result = await runChain(world, chain(300), "run-long");
    // A getter, not the array: the log outgrew what the runtime keeps.
    expect(Object.getOwnPropertyDescriptor(result, "events")?.get).toBeTypeOf("function");
    const events = result.events;
    expect(events).toHaveLength(300 * 6 + 3);
    expect(events).toEqual(await world.listEvents("run-long"));
    expect(result.events).toBe(events);
  });

  it("keeps a short run's events as a plain array", async () => {
    const result = await runChain(memoryWorld(), chain(3), "run-short");
    expect(Object.getOwnPropertyDescriptor(result, "events")?.value).toHaveLength(3 * 6 + 3);
  });

  it("still reads them after the SQLite world it ran on was closed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "run-log-window-"));
    try {
      const world = localWorld({ dataDir });
      const result = await runChain(world, chain(200), "run-closed");
      await world.close();
      const events = result.events;
      expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 200 * 6 + 3 }, (_, index) => index + 1));
      expect(events.at(-1)!.type).toBe("RunCompleted");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("of a failed run reads its events from the world too, ending in RunFailed", async () => {
    const world = memoryWorld();
    const explode = { id: "boom", uses: "tool.call", with: { tool: "explode", args: {} }, output: object } as LwirStep;
    const error = (await runChain(world, chain(200, explode), "run-long-failed").catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.failedStepPath).toBe("boom");
    expect(error.result!.events).toEqual(await world.listEvents("run-long-failed"));
    expect(error.result!.events.at(-1)!.type).toBe("RunFailed");
  });
});

describe("a resumed run whose recorded failures are older than what memory holds", () => {
  // 200 steps of history, then a group whose branches are cancelled by boom's failure. Both may
  // retry: a resume that missed the branches' cancelledBy would fail (and retry) the group, or retry boom.
  const steps = (): LwirStep[] =>
    [
      ...chain(200),
      {
        id: "fan",
        uses: "parallel",
        needs: ["s199"],
        retry: { maxAttempts: 3 },
        with: { items: "{{ input.items }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "wait", uses: "tool.call", with: { tool: "hang", args: { name: "{{ item }}" } }, output: object }],
        output: { mode: "array", schema: fanInSchema },
      },
      { id: "boom", uses: "tool.call", needs: ["s199"], retry: { maxAttempts: 2 }, with: { tool: "fail", args: { name: "boom", whenStarted: "y" } }, output: object },
      { id: "join", uses: "tool.call", needs: ["fan", "boom"], with: { tool: "increment", args: { n: 0 } }, output: object },
    ] as LwirStep[];
  const run = (world: World, tools: ReturnType<typeof concurrencyTools>["registry"]) =>
    executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps: steps(), tools: ["increment", "hang", "fail"] })), input: { items: ["x", "y"] }, tools, workerHarness: createFakeWorkerHarness(), runId: "run-resume-cancelled" });

  it("finds the branches' cancellations in the world and fails with the same failure, calling nothing", async () => {
    const reference = (await run(memoryWorld(), concurrencyTools().registry).catch((caught: unknown) => caught)) as RunFailedError;
    expect([reference.causeCode, reference.failedStepPath], reference.message).toEqual(["step_failed", "boom"]);
    const inner = memoryWorld();
    await expect(run(crashingWorld(inner, reference.result!.events.length - 1), concurrencyTools().registry)).rejects.toThrow(/simulated crash/);
    const second = concurrencyTools();
    const resumed = (await run(inner, second.registry).catch((caught: unknown) => caught)) as RunFailedError;
    // Without the world's StepFailed (its cancelledBy), the first cancelled branch would be the failure.
    expect([resumed.causeCode, resumed.failedStepPath]).toEqual(["step_failed", "boom"]);
    expect(second.gauge.started).toEqual([]);
    // The branches' cancellations name boom, so the group passes them up rather than failing itself.
    const groupRecords = (await inner.listEvents("run-resume-cancelled")).filter(
      (event) => ["ParallelBranchFailed", "ParallelGroupFailed"].includes(event.type) || (event.type === "StepFailed" && (event.payload as { stepPath: string }).stepPath === "fan"),
    );
    expect(groupRecords).toEqual([]);
  });
});

describe("RunLog", () => {
  const note = (n: number) => ({ type: "harness.tool_call.succeeded", payload: { sessionId: "s", n } });
  async function longLog(world: World, count: number): Promise<RunLog> {
    const log = new RunLog(world, "run-unit", new RunStateFolder({ runId: "run-unit" }));
    await log.open();
    for (let index = 0; index < count; index += 1) await log.appendAny([note(index)]);
    return log;
  }

  it("lists a session's events older than memory from the world, the same as memory would", async () => {
    const inner = memoryWorld();
    const { world, reads } = countingReads(inner);
    const log = await longLog(world, 1_000);
    const before = reads();
    const listed = await log.harnessSink({ stepPath: "s", afterSequence: 10 }).list();
    expect(reads()).toBe(before + 1);
    expect(listed).toEqual(await inner.listEvents("run-unit", { afterSequence: 10 }));
  });

  it("serves an attempt that holds its events from memory, without reading the world", async () => {
    const { world, reads } = countingReads(memoryWorld());
    const log = await longLog(world, 10);
    const release = log.holdFrom(5);
    for (let index = 0; index < 1_000; index += 1) await log.appendAny([note(index)]);
    const before = reads();
    const listed = await log.harnessSink({ stepPath: "s", afterSequence: 5 }).list();
    expect(reads()).toBe(before);
    expect(listed.map((event) => event.sequence)).toEqual(Array.from({ length: 1_005 }, (_, index) => index + 6));
    release();
  });

  it("finds a committed event older than memory in the world (and a recent one in memory)", async () => {
    const inner = memoryWorld();
    const { world, reads } = countingReads(inner);
    const log = await longLog(world, 1_000);
    const before = reads();
    const recent = await log.lastCommitted("harness.tool_call.succeeded", (event) => (event.payload as { n: number }).n === 999);
    expect([recent?.sequence, reads()]).toEqual([1_000, before]);
    const old = await log.lastCommitted("harness.tool_call.succeeded", (event) => (event.payload as { n: number }).n === 3);
    expect([old?.sequence, reads()]).toEqual([4, before + 1]);
    expect(await log.lastCommitted("harness.tool_call.succeeded", () => false)).toBeUndefined();
  });

  it("keeps every event for a world that cannot read its log back lazily", async () => {
    const world = Object.create(memoryWorld()) as World & { deferListEvents?: unknown };
    world.deferListEvents = undefined;
    const log = await longLog(world, 1_000);
    const history = await log.history();
    expect("events" in history && history.events.length).toBe(1_000);
  });

  it("gives a long log's history as a read of the world, checked against its last event", async () => {
    const world = memoryWorld();
    const log = await longLog(world, 1_000);
    const history = await log.history();
    expect("read" in history).toBe(true);
    const events = (history as { read: () => readonly EventRecord[] }).read();
    expect(events).toEqual(await world.listEvents("run-unit"));
  });
});
