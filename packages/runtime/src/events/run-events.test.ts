import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createToolRegistry } from "@little-stack/harness";
import { memoryWorld, type EventEnvelope } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from "@little-stack/testing";
import { tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { fanInSchema, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { executeWorkflowVersion } from "../execution/execute-workflow-version.js";
import type { CommittedRunEvent, RunEvent } from "./run-event.js";
import { RunEventStream } from "./run-event-stream.js";

let server: LoopbackOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function workTools() {
  return createToolRegistry({
    work: tool({
      description: "Work on one item.",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        await new Promise((resolve) => setTimeout(resolve, 1 + (name.length % 3)));
        return { done: name };
      },
    }),
  });
}

function fanOutVersion(branches: number) {
  const steps = [
    {
      id: "fan",
      uses: "parallel",
      with: {
        items: "{{ input.items }}",
        itemKey: "{{ item.name }}",
        cardinality: { kind: "matches_items" },
        maxBranches: branches,
        maxConcurrency: branches,
        failureMode: "fail_fast",
        fanIn: { order: "input", output: "array" },
      },
      steps: [{ id: "work", uses: "tool.call", with: { tool: "work", args: { name: "{{ item.name }}" } }, output: { mode: "object", schema: { type: "object" } } }],
      output: { mode: "array", schema: fanInSchema },
    },
  ] as LwirStep[];
  return versionOf(lwirDocument({ steps, tools: ["work"] }));
}

const itemsOf = (count: number) => ({ items: Array.from({ length: count }, (_, index) => ({ name: `item-${index}` })) });

const identity = (event: EventEnvelope | CommittedRunEvent) => `${event.runId}#${event.sequence} ${event.type} ${event.eventId}`;

describe("onEvent", () => {
  it("delivers every committed event of a parallel fan-out once, in commit order, as the log holds it", async () => {
    const world = memoryWorld({ maxConcurrentSteps: 16 });
    const seen: RunEvent[] = [];
    await executeWorkflowVersion({ world, workflowVersion: fanOutVersion(30), input: itemsOf(30), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-watch-fan", onEvent: (event) => seen.push(event) });
    const stored = await world.listEvents("run-watch-fan");
    expect(stored.length).toBeGreaterThan(30 * 4);
    expect(seen.every((event) => !event.ephemeral && !event.replayed)).toBe(true);
    expect(seen.map((event) => identity(event as CommittedRunEvent))).toEqual(stored.map(identity));
    expect((seen as CommittedRunEvent[]).map((event) => event.payload)).toEqual(stored.map((event) => event.payload));
  });

  it("replays what a resumed run recorded first, flagged, then what the resume commits", async () => {
    const inner = memoryWorld({ maxConcurrentSteps: 4 });
    const version = fanOutVersion(6);
    const crashed = await executeWorkflowVersion({ world: crashingWorld(inner, 25), workflowVersion: version, input: itemsOf(6), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-watch-resume" }).catch((error: unknown) => error);
    expect(String(crashed)).toContain("simulated crash");
    const recorded = await inner.listEvents("run-watch-resume");
    expect(recorded.length).toBeGreaterThan(0);
    const seen: CommittedRunEvent[] = [];
    await executeWorkflowVersion({ world: inner, workflowVersion: version, input: itemsOf(6), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-watch-resume", onEvent: (event) => (event.ephemeral ? undefined : seen.push(event)) });
    const stored = await inner.listEvents("run-watch-resume");
    expect(seen.map(identity)).toEqual(stored.map(identity));
    expect(seen.slice(0, recorded.length).every((event) => event.replayed)).toBe(true);
    expect(seen.slice(recorded.length).every((event) => !event.replayed)).toBe(true);
    expect(seen.at(-1)?.type).toBe("RunCompleted");

    // A finished run called again: everything it recorded, all replayed, nothing new.
    const again: CommittedRunEvent[] = [];
    await executeWorkflowVersion({ world: inner, workflowVersion: version, input: itemsOf(6), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-watch-resume", onEvent: (event) => (event.ephemeral ? undefined : again.push(event)) });
    expect(again.map(identity)).toEqual(stored.map(identity));
    expect(again.every((event) => event.replayed)).toBe(true);
  });

  it("streams an ai.generate step's text over real HTTP as ephemeral deltas; the log records one response, and a re-run streams nothing", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: "The printer is on fire; call facilities at once." }] });
    const model = createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "test-key", includeUsage: true })("worker-1");
    const version = versionOf(lwirDocument({ steps: [{ id: "reply", uses: "ai.generate", with: { model: "worker", prompt: "Reply to: {{ input.mail }}" }, output: { mode: "text" } } as LwirStep], models: ["worker"] }));
    const world = memoryWorld();
    const seen: RunEvent[] = [];
    const options = { world, workflowVersion: version, input: { mail: "The printer is on fire." }, tools: createToolRegistry({}), models: { worker: model }, runId: "run-watch-deltas" };
    const result = await executeWorkflowVersion({ ...options, onEvent: (event) => seen.push(event) });
    expect(result.output).toBe("The printer is on fire; call facilities at once.");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.stream).toBe(true);
    const deltas = seen.filter((event) => event.ephemeral);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.payload.delta).join("")).toBe("The printer is on fire; call facilities at once.");
    expect(deltas.every((event) => event.type === "harness.model.text_delta" && event.payload.stepPath === "reply")).toBe(true);
    const stored = await world.listEvents("run-watch-deltas");
    const responded = stored.filter((event) => event.type === "harness.model.responded");
    expect(responded).toHaveLength(1);
    expect((responded[0]!.payload as { callId: string }).callId).toBe(deltas[0]!.payload.callId);
    // Every delta comes before the committed response it belongs to.
    const respondedAt = seen.findIndex((event) => !event.ephemeral && event.type === "harness.model.responded");
    expect(seen.findLastIndex((event) => event.ephemeral)).toBeLessThan(respondedAt);
    expect(seen.filter((event) => !event.ephemeral).map((event) => identity(event as CommittedRunEvent))).toEqual(stored.map(identity));

    const again: RunEvent[] = [];
    await executeWorkflowVersion({ ...options, onEvent: (event) => again.push(event) });
    expect(server.requests).toHaveLength(1);
    expect(again.some((event) => event.ephemeral)).toBe(false);
  });

  it("keeps running when the listener throws, and says so once", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const world = memoryWorld();
      let calls = 0;
      const result = await executeWorkflowVersion({ world, workflowVersion: fanOutVersion(3), input: itemsOf(3), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-watch-throws", onEvent: () => {
        calls += 1;
        throw new Error("listener bug");
      } });
      expect(result.status).toBe("completed");
      expect(calls).toBe((await world.listEvents("run-watch-throws")).length);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes("listener bug"))).toHaveLength(1);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("refuses an onEvent that is not a function", async () => {
    const world = memoryWorld();
    await expect(executeWorkflowVersion({ world, workflowVersion: fanOutVersion(1), input: itemsOf(1), tools: workTools(), runId: "run-watch-bad", onEvent: "print" as never })).rejects.toThrow(/onEvent.*must be a function/);
    expect(await world.listEvents("run-watch-bad")).toEqual([]);
  });
});

describe("RunEventStream", () => {
  it("holds at most bufferSize events for a consumer that does not read, then hands every event over once, in order, read back from the log", async () => {
    const world = memoryWorld({ maxConcurrentSteps: 8 });
    const stream = new RunEventStream({ source: world, bufferSize: 8 });
    let peak = 0;
    const push = stream.push;
    const result = await executeWorkflowVersion({ world, workflowVersion: fanOutVersion(20), input: itemsOf(20), tools: workTools(), workerHarness: createFakeWorkerHarness(), runId: "run-stream-slow", onEvent: (event) => {
      push(event);
      peak = Math.max(peak, stream.buffered);
    } });
    stream.end();
    expect(result.status).toBe("completed");
    expect(peak).toBeLessThanOrEqual(8);
    const received: CommittedRunEvent[] = [];
    for await (const event of stream) if (!event.ephemeral) received.push(event);
    const stored = await world.listEvents("run-stream-slow");
    expect(stored.length).toBeGreaterThan(60);
    expect(received.map(identity)).toEqual(stored.map(identity));
    expect(received.every((event) => !event.replayed)).toBe(true);
  });

  it("drops deltas while the consumer is behind and counts them; committed events still all arrive", async () => {
    const world = memoryWorld();
    await world.appendEvents("run-stream-deltas", [{ type: "RunStarted", payload: {} }, { type: "StepScheduled", payload: {} }]);
    const stored = await world.listEvents("run-stream-deltas");
    const stream = new RunEventStream({ source: world, bufferSize: 1 });
    stream.push({ ...stored[0]!, ephemeral: false, replayed: true });
    stream.push({ ...stored[1]!, ephemeral: false, replayed: true });
    stream.push({ ephemeral: true, type: "harness.model.text_delta", runId: "run-stream-deltas", recordedAt: new Date().toISOString(), payload: { callId: "c", turn: 1, delta: "x" } });
    stream.end();
    const received: RunEvent[] = [];
    for await (const event of stream) received.push(event);
    expect(received.map((event) => (event.ephemeral ? "delta" : `${event.sequence}:${String(event.replayed)}`))).toEqual(["1:true", "2:true"]);
    expect(stream.droppedDeltas).toBe(1);
  });

  it("ends with the run's failure when given one, after what was committed", async () => {
    const world = memoryWorld();
    const stream = new RunEventStream({ source: world });
    await world.appendEvents("run-stream-fail", [{ type: "RunStarted", payload: {} }]);
    stream.push({ ...(await world.listEvents("run-stream-fail"))[0]!, ephemeral: false, replayed: false });
    stream.end({ error: new Error("the run blew up") });
    const types: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) types.push(event.type);
      })(),
    ).rejects.toThrow("the run blew up");
    expect(types).toEqual(["RunStarted"]);
  });
});
