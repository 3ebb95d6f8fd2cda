import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import type { HarnessScope } from "../contract/harness.js";
import { createHarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { ModelDelta } from "../events/harness-event-sink.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import { createMemoryHarnessEventSink } from "../events/memory-harness-event-sink.js";
import { durableGenerateText, durableStreamText, runHarnessSession } from "./durable-generate.js";

const scope: HarnessScope = { runId: "run_00000000000000d1", logDir: "/tmp/unused", role: "planner" };

type Turn = { readonly text?: string; readonly reasoning?: string; readonly toolCall?: { readonly toolName: string; readonly args: unknown } };

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: undefined },
  outputTokens: { total: 6, text: 6, reasoning: 0 },
};

/** A model that streams each turn's text word by word (and can only stream: doGenerate throws). */
function wordStreamingModel(turns: readonly Turn[]) {
  const calls = { generate: 0, stream: 0 };
  const model = new MockLanguageModelV3({
    provider: "fixture",
    modelId: "streaming-1",
    doGenerate: async () => {
      calls.generate += 1;
      throw new Error("this fixture only streams");
    },
    doStream: async () => {
      const turn = turns[calls.stream];
      calls.stream += 1;
      if (turn === undefined) throw new Error("script exhausted");
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (turn.reasoning !== undefined) {
        parts.push({ type: "reasoning-start", id: "r" }, { type: "reasoning-delta", id: "r", delta: turn.reasoning }, { type: "reasoning-end", id: "r" });
      }
      if (turn.text !== undefined) {
        parts.push({ type: "text-start", id: "t" });
        for (const word of turn.text.split(/(?<= )/)) parts.push({ type: "text-delta", id: "t", delta: word });
        parts.push({ type: "text-end", id: "t" });
      }
      if (turn.toolCall !== undefined) parts.push({ type: "tool-call", toolCallId: "provider-1", toolName: turn.toolCall.toolName, input: JSON.stringify(turn.toolCall.args) });
      parts.push({ type: "finish", usage, finishReason: { unified: turn.toolCall === undefined ? "stop" : "tool-calls", raw: undefined } });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

async function runWatched(options: { events: HarnessEventEnvelope[]; turns: readonly Turn[]; stream?: boolean; watch?: boolean }) {
  const deltas: ModelDelta[] = [];
  const memory = createMemoryHarnessEventSink(scope.runId, options.events);
  const sink = options.watch === false ? memory : { ...memory, onModelDelta: (delta: ModelDelta) => deltas.push(delta) };
  const recorder = createHarnessEventRecorder({ sink });
  const { model, calls } = wordStreamingModel(options.turns);
  const tools = { lookup: tool({ description: "Looks a key up.", inputSchema: z.object({ key: z.string() }), execute: async ({ key }) => ({ value: key.toUpperCase() }) }) };
  const text = await runHarnessSession({
    recorder,
    scope,
    sessionKey: "plan",
    task: { kind: "plan" },
    manifest: plannerManifest,
    body: async (session) => {
      const settings = { model, tools, prompt: "Look up a.", stopWhen: stepCountIs(5) };
      if (options.stream === true) return await durableStreamText(session, settings).text;
      return (await durableGenerateText(session, settings)).text;
    },
  });
  return { text, deltas, events: [...memory.events], calls };
}

const turns: Turn[] = [{ reasoning: "need a lookup", toolCall: { toolName: "lookup", args: { key: "a" } } }, { text: "The value of a is A." }];

describe("live model deltas", () => {
  it("streams a generate call's text to the watcher piece by piece while the log records one response per call", async () => {
    const { text, deltas, events, calls } = await runWatched({ events: [], turns });
    expect(text).toBe("The value of a is A.");
    expect(calls).toEqual({ generate: 0, stream: 2 });
    const textDeltas = deltas.filter((delta) => delta.kind === "text");
    expect(textDeltas.map((delta) => delta.delta)).toEqual(["The ", "value ", "of ", "a ", "is ", "A."]);
    expect(deltas.filter((delta) => delta.kind === "reasoning").map((delta) => delta.delta)).toEqual(["need a lookup"]);
    const responded = events.filter((event) => event.type === "harness.model.responded");
    expect(responded).toHaveLength(2);
    const second = responded[1]!.payload as { callId: string; turn: number; response: { text?: string }; durationMs?: number };
    expect(second.response.text).toBe("The value of a is A.");
    expect(typeof second.durationMs).toBe("number");
    // Every delta names the recorded call it belongs to.
    expect(new Set(textDeltas.map((delta) => delta.callId))).toEqual(new Set([second.callId]));
    expect(textDeltas.every((delta) => delta.turn === second.turn)).toBe(true);
    // The tool call the streamed response asked for ran and was recorded once.
    expect(events.filter((event) => event.type === "harness.tool_call.succeeded")).toHaveLength(1);
  });

  it("streams a streamText call's deltas too", async () => {
    const { text, deltas } = await runWatched({ events: [], turns, stream: true });
    expect(text).toBe("The value of a is A.");
    expect(deltas.filter((delta) => delta.kind === "text").map((delta) => delta.delta).join("")).toBe("The value of a is A.");
  });

  it("does not re-stream recorded calls when the session resumes", async () => {
    const first = await runWatched({ events: [], turns });
    // Drop the session's completion: the resumed session replays both recorded calls.
    const recorded = first.events.filter((event) => event.type !== "harness.session.completed");
    const again = await runWatched({ events: recorded, turns });
    expect(again.text).toBe("The value of a is A.");
    expect(again.calls).toEqual({ generate: 0, stream: 0 });
    expect(again.deltas).toEqual([]);
  });

  it("asks a model that cannot stream with doGenerate, watched or not", async () => {
    const sink = { ...createMemoryHarnessEventSink(scope.runId), onModelDelta: () => undefined };
    const model = new MockLanguageModelV3({
      provider: "fixture",
      modelId: "generate-only",
      doGenerate: async () => ({ content: [{ type: "text", text: "whole answer" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] }),
      doStream: async () => {
        throw new Error("no streaming here");
      },
    });
    const text = await runHarnessSession({
      recorder: createHarnessEventRecorder({ sink }),
      scope,
      sessionKey: "plan",
      task: { kind: "plan" },
      manifest: plannerManifest,
      body: async (session) => (await durableGenerateText(session, { model, prompt: "Answer." })).text,
    });
    expect(text).toBe("whole answer");
    expect(sink.events.filter((event) => event.type === "harness.model.responded")).toHaveLength(1);
  });

  it("uses the model's generate call when nobody watches", async () => {
    const { calls } = await runWatched({ events: [], turns: [{ text: "unused" }], watch: false }).catch((error: unknown) => ({ calls: { error: String(error) } }));
    // The fixture cannot generate: without a watcher the call went to doGenerate and failed there.
    expect(JSON.stringify(calls)).toContain("this fixture only streams");
  });
});
