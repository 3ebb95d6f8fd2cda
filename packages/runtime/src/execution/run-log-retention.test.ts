import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localWorld, memoryWorld, type World } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { afterEach, describe, expect, it } from "vitest";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import type { EventRecord } from "../events/runtime-event-types.js";
import { RunStateFolder } from "../run-state/run-state-folder.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import { RunLog, type RunLogRetention } from "./run-log.js";

// A RunLog past its retention keeps only its latest events; what is older comes from the world.
// A tiny retention (everything kept up to 8 events, then a window of 4) makes every path run on a
// few dozen events, against a real memory world and a real SQLite one.

const runId = "run-retention";
const retention: RunLogRetention = { keepAll: 8, window: 4 };
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function sqliteWorld(): World {
  const dataDir = mkdtempSync(join(tmpdir(), "run-log-retention-"));
  const world = localWorld({ dataDir });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return world;
}

async function openLog(world: World, options?: { readonly retention?: RunLogRetention }): Promise<RunLog> {
  const log = new RunLog(world, runId, new RunStateFolder({ runId }), undefined, options?.retention ?? retention);
  await log.open();
  return log;
}

/** Appends `ticks` boundary events, each after one held harness event (committed with it). */
async function appendTicks(log: RunLog, ticks: number, from = 0): Promise<void> {
  for (let tick = from; tick < from + ticks; tick += 1) {
    await log.appendAny([{ type: "harness.session.completed", payload: { tick } }]);
    await log.appendAny([{ type: "test.tick", payload: { tick } }]);
  }
}

function summary(events: readonly EventRecord[]): unknown[] {
  return events.map((event) => ({ sequence: event.sequence, eventId: event.eventId, type: event.type, payload: event.payload }));
}

describe.each([
  ["memoryWorld", () => memoryWorld()],
  ["localWorld (SQLite)", sqliteWorld],
])("RunLog retention on %s", (_name, makeWorld) => {
  it("hands the result the events it holds while the run is within keepAll", async () => {
    const world = makeWorld();
    const log = await openLog(world);
    await appendTicks(log, 4);
    const history = await log.history();
    expect(typeof history).toBe("object");
    expect(summary(history as readonly EventRecord[])).toEqual(summary(await world.listEvents(runId)));
    await world.close();
  });

  it("past keepAll, reads the whole history from the world, equal to listEvents", async () => {
    const world = makeWorld();
    const log = await openLog(world);
    await appendTicks(log, 20);
    const history = await log.history();
    expect(typeof history).toBe("function");
    const events = (history as () => readonly EventRecord[])();
    expect(events).toHaveLength(40);
    expect(summary(events)).toEqual(summary(await world.listEvents(runId)));
    await world.close();
  });

  it("finds the last event of a type among the recent events and among those the world holds", async () => {
    const world = makeWorld();
    const log = await openLog(world);
    await appendTicks(log, 20);
    const recent = await log.findLast("test.tick", (event) => (event.payload as { tick: number }).tick === 19);
    expect(recent?.sequence).toBe(40);
    const older = await log.findLast("test.tick", (event) => (event.payload as { tick: number }).tick === 1);
    expect(older?.sequence).toBe(4);
    expect(await log.findLast("test.tick", () => false)).toBeUndefined();
    await world.close();
  });

  it("lists a session's harness events across what was dropped, in sequence order, held events included", async () => {
    const world = makeWorld();
    const log = await openLog(world);
    await appendTicks(log, 20);
    // A held event not yet committed is listed too (after everything stored).
    await log.appendAny([{ type: "harness.session.completed", payload: { tick: 20 } }]);
    const listed = await log.harnessSink({ stepPath: "s", afterSequence: 0 }).list();
    const stored = (await world.listEvents(runId)).filter((event) => event.type.startsWith("harness."));
    expect(listed.map((event) => event.sequence)).toEqual([...stored.map((event) => event.sequence), 41]);
    expect(listed.map((event) => (event.payload as { tick: number }).tick)).toEqual(Array.from({ length: 21 }, (_, tick) => tick));
    // Starting after a sequence the log no longer holds reads only what follows it.
    const later = await log.harnessSink({ stepPath: "s", afterSequence: 10 }).list();
    expect(later[0]?.sequence).toBe(11);
    expect(later).toHaveLength(16);
    await log.flush();
    await world.close();
  });

  it("a log opened on a long run holds only its latest events, and still checks sequences", async () => {
    const world = makeWorld();
    await appendTicks(await openLog(world), 20);
    const reopened = await openLog(world);
    expect(typeof (await reopened.history())).toBe("function");
    await appendTicks(reopened, 1, 20);
    expect(reopened.folder.eventCount).toBe(42);
    expect(summary(((await reopened.history()) as () => readonly EventRecord[])())).toEqual(summary(await world.listEvents(runId)));
    // Another writer's append is noticed by sequence, as before the log kept fewer events.
    await world.appendEvents(runId, [{ type: "test.tick", payload: { tick: "intruder" } }]);
    await expect(reopened.appendAny([{ type: "test.tick", payload: { tick: 21 } }])).rejects.toThrow(/another writer appended to the run \(expected sequence 43\)/);
    await world.close();
  });
});

describe("a run longer than the log keeps (default retention: every event up to 4,096)", () => {
  const chain = 640;
  const steps = Array.from({ length: chain + 1 }, (_, index) =>
    index < chain
      ? { id: `s${index}`, uses: "tool.call", needs: index === 0 ? [] : [`s${index - 1}`], with: { tool: "increment", args: { n: index === 0 ? "{{ input.n }}" : `{{ steps.s${index - 1}.output.n }}` } }, output: { mode: "object", schema: { type: "object" } } }
      : { id: "last", uses: "tool.call", needs: [`s${chain - 1}`], with: { tool: "echo", args: {} }, output: { mode: "object", schema: { type: "object" } } },
  ) as LwirStep[];

  function version(lastTool: "echo" | "explode") {
    const withLast = steps.map((step) => (step.id === "last" ? { ...step, with: { tool: lastTool, args: { n: `{{ steps.s${chain - 1}.output.n }}` } } } : step)) as LwirStep[];
    return versionOf(lwirDocument({ steps: withLast, tools: ["increment", "echo", "explode"], models: [] }));
  }

  it("returns every event of the run, read from the world, equal to listEvents", async () => {
    const world = sqliteWorld();
    const result = await executeWorkflowVersion({ world, workflowVersion: version("echo"), input: { n: 0 }, runId: "run-long", tools: countingTools().registry });
    expect(result.output).toEqual({ n: chain });
    const stored = await world.listEvents("run-long");
    expect(stored.length).toBeGreaterThan(4096);
    expect(summary(result.events)).toEqual(summary(stored));
    // Re-running the completed run returns the same result and the same events.
    const again = await executeWorkflowVersion({ world, workflowVersion: version("echo"), input: { n: 0 }, runId: "run-long", tools: countingTools().registry });
    expect(again.output).toEqual({ n: chain });
    expect(summary(again.events)).toEqual(summary(stored));
    await world.close();
  });

  it("a long run that fails carries all its events on the error, and so does its re-run", async () => {
    const world = memoryWorld();
    const attempt = () => executeWorkflowVersion({ world, workflowVersion: version("explode"), input: { n: 0 }, runId: "run-long-failing", tools: countingTools().registry });
    const first = await attempt().then(
      () => undefined,
      (error: unknown) => error as RunFailedError,
    );
    expect(first).toBeInstanceOf(RunFailedError);
    const stored = await world.listEvents("run-long-failing");
    expect(stored.length).toBeGreaterThan(4096);
    expect(stored.at(-1)?.type).toBe("RunFailed");
    expect(summary(first!.result!.events)).toEqual(summary(stored));
    const second = await attempt().then(
      () => undefined,
      (error: unknown) => error as RunFailedError,
    );
    expect(second?.result?.error.message).toBe(first?.result?.error.message);
    expect(summary(second!.result!.events)).toEqual(summary(stored));
    await world.close();
  });
});
