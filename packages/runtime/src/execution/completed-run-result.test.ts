import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson, LittleWorkflowError } from "@little-stack/canonical";
import { localWorld, memoryWorld, type ListEventsOptions, type LocalWorld, type World } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { EventRecord } from "../events/runtime-event-types.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import type { RunResult } from "./run-result.js";

// Issue 18 item 4: re-running a completed run returns its recorded result without reading its
// whole log; the log is read (and verified) when the result's events are.

const root = mkdtempSync(join(tmpdir(), "runtime-completed-rerun-"));
let counter = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

const chainLength = 12;
const objectOutput = { mode: "object", schema: { type: "object" } } as const;
/** A model call (usage), a chain of tool calls, and a last step whose output is an artifact (over the inline limit). */
const steps = [
  { id: "draft", uses: "ai.generate", with: { model: "fast", prompt: "Draft {{ input.topic }}" }, output: { mode: "text" } },
  ...Array.from({ length: chainLength }, (_, index) => ({
    id: `s${index}`,
    uses: "tool.call",
    needs: [index === 0 ? "draft" : `s${index - 1}`],
    with: { tool: "increment", args: index === 0 ? { n: "{{ input.n }}" } : { n: `{{ steps.s${index - 1}.output.n }}` } },
    output: objectOutput,
  })),
  { id: "big", uses: "tool.call", needs: [`s${chainLength - 1}`], with: { tool: "echo", args: { big: "{{ input.big }}", n: `{{ steps.s${chainLength - 1}.output.n }}` } }, output: objectOutput },
] as LwirStep[];
const workflowVersion = versionOf(lwirDocument({ steps, tools: ["increment", "echo"], models: ["fast"] }));
const input = { topic: "tides", n: 1, big: "b".repeat(300_000) };

function draftModel() {
  return new MockLanguageModelV3({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    doGenerate: async () => ({
      content: [{ type: "text", text: "a draft" }],
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 1_000, noCache: 600, cacheRead: 400, cacheWrite: undefined }, outputTokens: { total: 200, text: 200, reasoning: 0 } },
      warnings: [],
    }),
  });
}

/** What the run's log reads through the world: events listed by each call, and deferred lists read. */
function countingWorld(inner: World): { world: World; listed: { options: ListEventsOptions | undefined; events: number }[]; deferredReads: number[] } {
  const listed: { options: ListEventsOptions | undefined; events: number }[] = [];
  const deferredReads: number[] = [];
  const world = new Proxy(inner, {
    get(target, property) {
      if (property === "listEvents") {
        return async (runId: string, options?: ListEventsOptions) => {
          const events = await target.listEvents(runId, options);
          listed.push({ options, events: events.length });
          return events;
        };
      }
      if (property === "deferListEvents") {
        return async (runId: string, options?: ListEventsOptions) => {
          const deferred = await target.deferListEvents!(runId, options);
          return {
            read: () => {
              const events = deferred.read();
              deferredReads.push(events.length);
              return events;
            },
          };
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { world, listed, deferredReads };
}

function run(world: World, runId: string, options: { readonly input?: unknown; readonly version?: typeof workflowVersion; readonly onEvent?: (event: unknown) => void } = {}): Promise<RunResult> {
  return executeWorkflowVersion({
    world,
    workflowVersion: options.version ?? workflowVersion,
    input: options.input ?? input,
    runId,
    tools: countingTools().registry,
    models: { fast: draftModel() },
    workerHarness: createFakeWorkerHarness(),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
}

/** A completed run in a fresh local data dir, the world closed (its WAL checkpointed into events.db). */
async function completedRun(): Promise<{ dataDir: string; runId: string; first: RunResult; stored: readonly EventRecord[] }> {
  const dataDir = join(root, `w${(counter += 1)}`);
  const world = localWorld({ dataDir });
  const runId = `run-${counter}`;
  const first = await run(world, runId);
  const stored = await world.listEvents(runId);
  // Read while the world is open: a fresh run's events are what it committed.
  expect(first.events.length).toBe(stored.length);
  await world.close();
  return { dataDir, runId, first, stored };
}

const shape = (events: readonly EventRecord[]) => events.map(({ eventId, sequence, type, recordedAt, payload }) => ({ eventId, sequence, type, recordedAt, payload }));

/**
 * Changes one stored payload's bytes in events.db (as a flipped bit would): `from` inside the
 * event's payload text, which must occur once in the file (a payload too big for one page is
 * spread over overflow pages: then `from` itself must occur once in the file).
 */
function damageStoredPayload(dataDir: string, event: EventRecord, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  expect(canonicalJson(event.payload)).toContain(from);
  const file = join(dataDir, "events", "events.db");
  const bytes = readFileSync(file);
  const text = Buffer.from(canonicalJson(event.payload));
  const whole = bytes.indexOf(text);
  const needle = whole >= 0 ? text : Buffer.from(from);
  const at = bytes.indexOf(needle);
  expect(at, `the payload of #${event.sequence} (or ${from}) is in events.db`).toBeGreaterThanOrEqual(0);
  expect(bytes.indexOf(needle, at + 1)).toBe(-1);
  Buffer.from(to).copy(bytes, at + (whole >= 0 ? text.indexOf(Buffer.from(from)) : 0));
  writeFileSync(file, bytes);
}

async function rejection(promise: Promise<unknown>): Promise<LittleWorkflowError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(LittleWorkflowError.is(error), String(error)).toBe(true);
  return error as LittleWorkflowError;
}

function thrownBy(read: () => unknown): LittleWorkflowError {
  try {
    read();
  } catch (error) {
    expect(LittleWorkflowError.is(error), String(error)).toBe(true);
    return error as LittleWorkflowError;
  }
  throw new Error("expected a throw");
}

describe("re-running a completed run", () => {
  it("reads only the events its result is made of, and the whole log once when result.events is read", async () => {
    const { dataDir, runId, first, stored } = await completedRun();
    const counted = countingWorld(localWorld({ dataDir }));
    const again = await run(counted.world, runId);
    // RunStarted + RunCompleted, the one model response, the one ArtifactCreated: not the ~85 others.
    expect(stored.length).toBeGreaterThan(80);
    expect(counted.listed.reduce((sum, call) => sum + call.events, 0)).toBe(4);
    expect(counted.listed.every((call) => call.options?.typePrefix !== undefined)).toBe(true);
    expect(counted.deferredReads).toEqual([]);
    expect({ output: again.output, usage: again.usage, artifacts: again.artifacts, workflowVersionId: again.workflowVersionId, status: again.status }).toEqual({
      output: first.output,
      usage: first.usage,
      artifacts: first.artifacts,
      workflowVersionId: first.workflowVersionId,
      status: "completed",
    });
    expect(again.usage).toMatchObject({ inputTokens: 1_000, cachedInputTokens: 400, pricedCalls: 1 });
    expect((again.output as { big: string }).big).toHaveLength(300_000);
    // Asked for, the events are every stored event, read once.
    expect(shape(again.events)).toEqual(shape(stored));
    expect(again.events).toBe(again.events);
    expect(counted.deferredReads).toEqual([stored.length]);
    await counted.world.close();
  });

  it("hands out events that behave as the array they were: spread, JSON, structuredClone, deep equality, key order", async () => {
    const { dataDir, runId, first, stored } = await completedRun();
    const world = localWorld({ dataDir });
    const again = await run(world, runId);
    expect(Object.keys(again)).toEqual(["runId", "workflowVersionId", "status", "output", "usage", "events", "artifacts"]);
    expect(Array.isArray(again.events)).toBe(true);
    expect(again.events.length).toBe(stored.length);
    expect(again.events.at(-1)?.type).toBe("RunCompleted");
    expect(again.events.find((event) => event.type === "RunStarted")?.payload).toMatchObject({ input: { n: 1 } });
    expect([...again.events].map((event) => event.eventId)).toEqual(first.events.map((event) => event.eventId));
    expect({ ...again }.events).toBe(again.events);
    expect((JSON.parse(JSON.stringify(again)) as { events: unknown[] }).events).toEqual(JSON.parse(JSON.stringify(first.events)));
    expect(structuredClone(again).events.length).toBe(stored.length);
    expect(again).toEqual({ ...first, events: again.events });
    await world.close();
  });

  it("keeps the events readable after the world is closed, and as long as the run was when the result was read", async () => {
    const { dataDir, runId, stored } = await completedRun();
    const world = localWorld({ dataDir });
    const again = await run(world, runId);
    // Nothing the runtime writes, but a World accepts it: not part of the history the result was read from.
    await world.appendEvents(runId, { type: "AfterTheFact", payload: {} });
    await world.close();
    expect(shape(again.events)).toEqual(shape(stored));
  });

  it("returns the result of a log damaged in a row it is not made of, and refuses it when the events are read", async () => {
    const { dataDir, runId, first, stored } = await completedRun();
    const middle = stored.find((event) => event.type === "StepCompleted" && (event.payload as { stepPath?: string }).stepPath === "s5")!;
    damageStoredPayload(dataDir, middle, '"stepId":"s5"', '"stepId":"s9"');
    const world = localWorld({ dataDir });
    const again = await run(world, runId);
    expect(again.output).toEqual(first.output);
    const error = thrownBy(() => again.events);
    expect(error.code).toBe("world.event_log_corrupt");
    expect(error.details).toMatchObject({ runId, sequence: middle.sequence });
    // Every later read refuses it too; a full read was refused before the change as well.
    expect(thrownBy(() => again.events).code).toBe("world.event_log_corrupt");
    expect((await rejection(world.listEvents(runId))).details).toMatchObject({ sequence: middle.sequence });
    await world.close();
  });

  for (const [name, pick, from, to] of [
    ["RunCompleted", (events: readonly EventRecord[]) => events.at(-1)!, '"terminalStepPath":"big"', '"terminalStepPath":"bog"'],
    ["RunStarted", (events: readonly EventRecord[]) => events.find((event) => event.type === "RunStarted")!, '"topic":"tides"', '"topic":"tidas"'],
    ["harness.model.responded", (events: readonly EventRecord[]) => events.find((event) => event.type === "harness.model.responded")!, '"a draft"', '"a dreft"'],
  ] as const) {
    it(`refuses the re-run itself when the ${name} row it reads was damaged`, async () => {
      const { dataDir, runId, stored } = await completedRun();
      const damaged = pick(stored);
      damageStoredPayload(dataDir, damaged, from, to);
      const world = localWorld({ dataDir });
      const error = await rejection(run(world, runId));
      expect(error.code).toBe("world.event_log_corrupt");
      expect(error.details).toMatchObject({ runId, sequence: damaged.sequence });
      await world.close();
    });
  }

  it("refuses a log that lost its last commits, as before (events.db without its WAL)", async () => {
    const dataDir = join(root, `w${(counter += 1)}`);
    const world = localWorld({ dataDir });
    const runId = "run-lost-wal";
    await run(world, runId);
    // Copied while the world is open: the commits are still in events.db-wal, which is left behind.
    const copy = join(root, `w${(counter += 1)}`);
    mkdirSync(join(copy, "events"), { recursive: true });
    cpSync(join(dataDir, "events", "events.db"), join(copy, "events", "events.db"));
    cpSync(join(dataDir, "events", "heads"), join(copy, "events", "heads"), { recursive: true });
    await world.close();
    const damaged = localWorld({ dataDir: copy });
    const error = await rejection(run(damaged, runId));
    expect(error.code).toBe("world.event_log_corrupt");
    expect(error.message).toContain("committed events were lost");
    await damaged.close();
  });

  it("refuses another workflow version, and takes the ordinary path (which refuses it) for another input", async () => {
    const { dataDir, runId } = await completedRun();
    const world = localWorld({ dataDir }) as LocalWorld;
    const other = versionOf(lwirDocument({ steps: steps.slice(0, 2), tools: ["increment", "echo"], models: ["fast"] }));
    expect((await rejection(run(world, runId, { version: other }))).code).toBe("runtime.workflow_version_mismatch");
    expect((await rejection(run(world, runId, { input: { ...input, n: 2 } }))).code).toBe("runtime.run_input_mismatch");
    await world.close();
  });

  it("reads the events at once for a watcher, and for a world without deferListEvents", async () => {
    const { dataDir, runId, stored } = await completedRun();
    const inner = localWorld({ dataDir });
    const watched: unknown[] = [];
    const counted = countingWorld(inner);
    await run(counted.world, runId, { onEvent: (event) => watched.push(event) });
    expect(watched).toHaveLength(stored.length);
    expect(counted.deferredReads).toEqual([stored.length]);

    const eager = new Proxy(inner, {
      get: (target, property) => (property === "deferListEvents" ? undefined : (Reflect.get(target, property) as unknown)),
    });
    const again = await run(eager, runId);
    expect(Object.getOwnPropertyDescriptor(again, "events")?.value).toBeDefined();
    expect(shape(again.events)).toEqual(shape(stored));
    await inner.close();
  });

  it("does the same on a memoryWorld", async () => {
    const counted = countingWorld(memoryWorld());
    const first = await run(counted.world, "run-memory");
    const stored = await counted.world.listEvents("run-memory");
    counted.listed.length = 0;
    const again = await run(counted.world, "run-memory");
    expect(counted.listed.reduce((sum, call) => sum + call.events, 0)).toBe(4);
    expect(again.output).toEqual(first.output);
    expect(shape(again.events)).toEqual(shape(stored));
    await counted.world.close();
  });
});
