import { Output, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import { scriptedV3Model, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { HarnessScope } from "../contract/harness.js";
import { CapabilityDriftError, ReplayDivergenceError } from "../errors/replay-errors.js";
import { createHarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import { createMemoryHarnessEventSink } from "../events/memory-harness-event-sink.js";
import { durableGenerateText, durableStreamText, runHarnessSession } from "./durable-generate.js";
import { openHarnessSession } from "./harness-session.js";

const scope: HarnessScope = { runId: "run_0000000000000001", logDir: "/tmp/unused", role: "planner" };

const script: FixtureTurn[] = [
  { toolCalls: [{ toolName: "lookup", args: { key: "a" } }, { toolName: "lookup", args: { key: "b" } }], usage: { input: 100, output: 20, cached: 40, reasoning: 5 } },
  { toolCalls: [{ toolName: "lookup", args: { key: "c" } }], usage: { input: 150, output: 10, cached: 100 } },
  { text: "done: A B C", usage: { input: 200, output: 8 } },
];

function lookupTool(log: string[]) {
  return tool({
    description: "Looks a key up.",
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }, { toolCallId }) => {
      log.push(`${key}:${toolCallId}`);
      return { value: key.toUpperCase() };
    },
  });
}

async function runSession(options: { events: HarnessEventEnvelope[]; turns?: FixtureTurn[]; prompt?: string; stream?: boolean }) {
  const sink = createMemoryHarnessEventSink(scope.runId, options.events);
  const recorder = createHarnessEventRecorder({ sink });
  const model = scriptedV3Model(options.turns ?? script);
  const toolLog: string[] = [];
  const tools = { lookup: lookupTool(toolLog) };
  const text = await runHarnessSession({
    recorder,
    scope,
    sessionKey: "plan",
    task: { kind: "plan" },
    manifest: plannerManifest,
    body: async (session) => {
      const settings = { model, tools, prompt: options.prompt ?? "Look up a, b and c.", stopWhen: stepCountIs(10) };
      if (options.stream === true) {
        const result = durableStreamText(session, settings);
        return await result.text;
      }
      const result = await durableGenerateText(session, settings);
      return result.text;
    },
  });
  return { text, events: [...sink.events], modelCalls: model.calls.length, toolLog };
}

/** Events without what legitimately differs between runs (timings, and so event ids). */
function deterministicPart(events: readonly HarnessEventEnvelope[]): unknown[] {
  return events.map((event) => {
    const { durationMs: _durationMs, ...payload } = event.payload as Record<string, unknown>;
    return { type: event.type, payload };
  });
}

function types(events: readonly HarnessEventEnvelope[]): string[] {
  return events.map((event) => event.type.replace("harness.", ""));
}

describe("durable agent session", () => {
  it("records every model call and tool call, with deterministic ids, caller, turn and token usage", async () => {
    const run = await runSession({ events: [] });
    expect(run.text).toBe("done: A B C");
    expect(run.modelCalls).toBe(3);
    expect(types(run.events)).toEqual([
      "session.started",
      "model.called",
      "model.responded",
      "tool_call.started",
      "tool_call.started",
      "tool_call.succeeded",
      "tool_call.succeeded",
      "model.called",
      "model.responded",
      "tool_call.started",
      "tool_call.succeeded",
      "model.called",
      "model.responded",
      "session.completed",
    ]);
    const responded = run.events.find((event) => event.type === "harness.model.responded")?.payload as any;
    expect(responded.model).toEqual({ provider: "fixture", modelId: "scripted-1" });
    expect(responded.response.usage).toEqual({ inputTokens: 100, outputTokens: 20, cachedInputTokens: 40, reasoningTokens: 5 });
    const started = run.events.filter((event) => event.type === "harness.tool_call.started").map((event) => event.payload as any);
    expect(started.map((payload) => [payload.turn, payload.caller, payload.toolName])).toEqual([
      [1, "model", "lookup"],
      [1, "model", "lookup"],
      [2, "model", "lookup"],
    ]);
    // The tool saw the harness's deterministic call id, not the provider's.
    expect(run.toolLog.map((line) => line.split(":")[1])).toEqual(expect.arrayContaining(started.map((payload) => payload.callId)));
    expect(started[0].callId).toMatch(/^tcall_[0-9a-f]{16}$/);
    const completed = run.events.at(-1)?.payload as any;
    expect(completed.output).toBe("done: A B C");
    expect(completed.usage).toEqual({ inputTokens: 450, outputTokens: 38, cachedInputTokens: 140, reasoningTokens: 5 });

    const again = await runSession({ events: [] });
    expect(deterministicPart(again.events)).toEqual(deterministicPart(run.events));
  });

  it("replays a completed session with zero model calls and zero tool calls", async () => {
    const first = await runSession({ events: [] });
    const replay = await runSession({ events: first.events });
    expect(replay.text).toBe("done: A B C");
    expect(replay.modelCalls).toBe(0);
    expect(replay.toolLog).toEqual([]);
    expect(replay.events).toHaveLength(first.events.length);
  });

  it("resumes after turn 1: recorded turn replayed, live from the first unrecorded call", async () => {
    const first = await runSession({ events: [] });
    const cut = first.events.findIndex((event) => event.type === "harness.model.called" && (event.payload as any).turn === 2);
    const resumed = await runSession({ events: first.events.slice(0, cut), turns: script.slice(1) });
    expect(resumed.text).toBe("done: A B C");
    expect(resumed.modelCalls).toBe(2);
    expect(resumed.toolLog.map((line) => line.split(":")[0])).toEqual(["c"]);
    expect(deterministicPart(resumed.events)).toEqual(deterministicPart(first.events));
  });

  it.each([
    // label, last recorded event (of turn 2), tools run live, model calls made live
    ["after a response, before its tool calls started", "harness.model.responded", ["c"], 1],
    ["with a model call in flight (called, no response)", "harness.model.called", ["c"], 2],
  ] as const)("resumes %s", async (_label, cutType, liveTools, liveModelCalls) => {
    const first = await runSession({ events: [] });
    const cut = first.events.findIndex((event) => event.type === cutType && (event.payload as any).turn === 2);
    const resumed = await runSession({ events: first.events.slice(0, cut + 1), turns: script.slice(script.length - liveModelCalls) });
    expect(resumed.text).toBe("done: A B C");
    expect(resumed.modelCalls).toBe(liveModelCalls);
    expect(resumed.toolLog.map((line) => line.split(":")[0])).toEqual(liveTools);
    expect(deterministicPart(resumed.events)).toEqual(deterministicPart(first.events));
  });

  it("re-executes an in-flight tool call (started, never finished) under the same call id", async () => {
    const first = await runSession({ events: [] });
    const lastStartOfTurn2 = first.events.findIndex((event) => event.type === "harness.tool_call.started" && (event.payload as any).turn === 2);
    const inFlightId = (first.events[lastStartOfTurn2]?.payload as any).callId;
    const resumed = await runSession({ events: first.events.slice(0, lastStartOfTurn2 + 1), turns: script.slice(2) });
    expect(resumed.modelCalls).toBe(1);
    expect(resumed.toolLog).toEqual([`c:${inFlightId}`]);
    expect(resumed.events.filter((event) => event.type === "harness.tool_call.started")).toHaveLength(3);
    expect(resumed.text).toBe("done: A B C");
  });

  it("fails with ReplayDivergenceError when the prompt at a recorded turn changed", async () => {
    const first = await runSession({ events: [] });
    const cut = first.events.findIndex((event) => event.type === "harness.model.called" && (event.payload as any).turn === 2);
    const error = await runSession({ events: first.events.slice(0, cut + 1), prompt: "Look up something else." }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReplayDivergenceError);
    expect((error as ReplayDivergenceError).turn).toBe(1);
    expect((error as Error).message).toMatch(/diverged at turn 1: the prompt hashes to sha256:/);
  });

  it("fails with CapabilityDriftError and a readable diff when the manifest changed", async () => {
    const first = await runSession({ events: [] });
    const recorder = createHarnessEventRecorder({ sink: createMemoryHarnessEventSink(scope.runId, first.events) });
    const drifted = { ...plannerManifest, globalToolsHash: "sha256:9999999999999999999999999999999999999999999999999999999999999999" };
    const error = await openHarnessSession({ recorder, scope, sessionKey: "plan", task: { kind: "plan" }, manifest: drifted }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CapabilityDriftError);
    expect((error as CapabilityDriftError).code).toBe("capability_drift");
    expect((error as CapabilityDriftError).diff).toEqual([`manifest.globalToolsHash: "${plannerManifest.globalToolsHash}" → "${drifted.globalToolsHash}"`]);
  });

  it("streams through streamText and replays the stream with zero calls", async () => {
    const first = await runSession({ events: [], stream: true });
    expect(first.text).toBe("done: A B C");
    expect(first.modelCalls).toBe(3);
    expect(first.toolLog).toHaveLength(3);
    const replay = await runSession({ events: first.events, stream: true });
    expect(replay.text).toBe("done: A B C");
    expect(replay.modelCalls).toBe(0);
    expect(replay.toolLog).toEqual([]);
  });

  it("replays a recorded tool failure as the same error the model saw", async () => {
    const sink = createMemoryHarnessEventSink(scope.runId);
    const recorder = createHarnessEventRecorder({ sink });
    let invocations = 0;
    const tools = {
      flaky: tool({
        description: "Always fails.",
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          invocations += 1;
          throw new Error("upstream unavailable");
        },
      }),
    };
    const turns: FixtureTurn[] = [{ toolCalls: [{ toolName: "flaky", args: {} }] }, { text: "gave up" }];
    const run = async () => {
      const session = await openHarnessSession({ recorder, scope, sessionKey: "flaky", task: { kind: "plan" }, manifest: plannerManifest });
      const model = scriptedV3Model(turns);
      const result = await durableGenerateText(session, { model, tools, prompt: "try", stopWhen: stepCountIs(5) });
      return { text: result.text, calls: model.calls.length };
    };
    expect(await run()).toEqual({ text: "gave up", calls: 2 });
    expect(sink.events.find((event) => event.type === "harness.tool_call.failed")?.payload).toMatchObject({ error: { name: "Error", message: "upstream unavailable" } });
    expect(await run()).toEqual({ text: "gave up", calls: 0 });
    expect(invocations).toBe(1);
  });

  it("records structured output (Output.object) and replays it", async () => {
    const sink = createMemoryHarnessEventSink(scope.runId);
    const recorder = createHarnessEventRecorder({ sink });
    const run = async () => {
      const session = await openHarnessSession({ recorder, scope, sessionKey: "object", task: { kind: "plan" }, manifest: plannerManifest });
      const model = scriptedV3Model([{ text: JSON.stringify({ title: "Hello", score: 3 }) }]);
      const result = await durableGenerateText(session, {
        model,
        prompt: "rate",
        output: Output.object({ schema: z.object({ title: z.string(), score: z.number() }) }),
      });
      return { output: result.output, calls: model.calls.length };
    };
    expect(await run()).toEqual({ output: { title: "Hello", score: 3 }, calls: 1 });
    const called = sink.events.find((event) => event.type === "harness.model.called")?.payload as any;
    expect(called.request.responseFormat.type).toBe("json");
    expect(await run()).toEqual({ output: { title: "Hello", score: 3 }, calls: 0 });
  });
});
