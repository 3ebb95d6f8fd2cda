import { APICallError } from "@ai-sdk/provider";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { workerManifest } from "../__fixtures__/manifests.js";
import { scriptedV3Model } from "../__fixtures__/scripted-v3-model.js";
import type { HarnessScope } from "../contract/harness.js";
import { HarnessSessionError, ToolResultNotJsonError } from "../errors/harness-session-errors.js";
import { createHarnessEventRecorder } from "../events/harness-event-recorder.js";
import { harnessEventSinkFromWorld, type EventStoreLike } from "../events/harness-event-sink.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import { createMemoryHarnessEventSink } from "../events/memory-harness-event-sink.js";
import { durableGenerateText } from "./durable-generate.js";
import { openHarnessSession } from "./harness-session.js";
import { recorderForContext } from "./recorder-for-context.js";

const scope: HarnessScope = { runId: "run_0000000000000003", logDir: "/tmp/unused", role: "worker.ai-generate" };

function open(events: HarnessEventEnvelope[] = []) {
  const sink = createMemoryHarnessEventSink(scope.runId, events);
  const recorder = createHarnessEventRecorder({ sink });
  return { sink, session: openHarnessSession({ recorder, scope, sessionKey: "step:summarize", task: { kind: "execute_step" }, manifest: workerManifest, stepPath: "summarize" }) };
}

describe("durable session details", () => {
  it("keeps the turn and call id when the AI SDK retries a failed model call, and stamps stepPath", async () => {
    let attempts = 0;
    const model = new MockLanguageModelV3({
      provider: "fixture",
      modelId: "flaky",
      doGenerate: async () => {
        attempts += 1;
        if (attempts === 1) {
          throw new APICallError({ message: "overloaded", url: "http://127.0.0.1/v1", requestBodyValues: {}, statusCode: 503, isRetryable: true });
        }
        return scriptedV3Model([{ text: "ok" }]).doGenerate({ prompt: [] });
      },
    });
    const { sink, session } = open();
    const result = await durableGenerateText(await session, { model, prompt: "hi", maxRetries: 1 });
    expect(result.text).toBe("ok");
    const modelEvents = sink.events.filter((event) => event.type.startsWith("harness.model.")).map((event) => event.payload as any);
    expect(modelEvents.map((payload) => payload.turn)).toEqual([1, 1, 1]);
    expect(sink.events.filter((event) => event.type.startsWith("harness.model.")).map((event) => event.type)).toEqual([
      "harness.model.called",
      "harness.model.failed",
      "harness.model.responded",
    ]);
    expect(new Set(modelEvents.map((payload) => payload.callId)).size).toBe(1);
    expect(modelEvents[2].stepPath).toBe("summarize");
    expect(modelEvents[1].error).toMatchObject({ name: "AI_APICallError", message: "overloaded" });
  });

  it("names the session's step path on every event it records (calls, results, session end)", async () => {
    const { sink, session } = open();
    const opened = await session;
    const model = scriptedV3Model([{ toolCalls: [{ toolName: "echo", args: { word: "hi" } }] }, { text: "done" }]);
    const tools = opened.wrapTools({ echo: tool({ description: "echo", inputSchema: z.object({ word: z.string() }), execute: async ({ word }) => word }) });
    await generateText({ model: opened.wrapModel(model), tools, prompt: "go", stopWhen: stepCountIs(3) });
    await opened.complete({ output: "done" });
    const withoutStepPath = sink.events.filter((event) => event.type !== "harness.session.started" && (event.payload as { stepPath?: string }).stepPath !== "summarize");
    expect(withoutStepPath.map((event) => event.type)).toEqual([]);
    expect(sink.events.map((event) => event.type)).toEqual(expect.arrayContaining(["harness.model.called", "harness.tool_call.started", "harness.tool_call.succeeded", "harness.session.completed"]));
  });

  it("runs a direct-execute step once and returns the recorded output on resume", async () => {
    const first = open();
    let runs = 0;
    const step = { stepId: "route", uses: "decision" as const, stepPath: "route", visitIndex: 0, run: async () => ({ chosen: "end", run: ++runs }) };
    expect(await (await first.session).executeStep(step)).toEqual({ chosen: "end", run: 1 });
    const second = open([...first.sink.events]);
    expect(await (await second.session).executeStep(step)).toEqual({ chosen: "end", run: 1 });
    expect(runs).toBe(1);
    expect(second.sink.events.map((event) => event.type)).toEqual(["harness.session.started", "harness.execute_step.started", "harness.execute_step.succeeded"]);
  });

  it("refuses a tool call that did not come from the session's model", async () => {
    const { session } = open();
    const tools = (await session).wrapTools({ echo: tool({ description: "echo", inputSchema: z.object({}), execute: async () => "x" }) });
    const unwrappedModel = scriptedV3Model([{ toolCalls: [{ toolName: "echo", args: {} }] }, { text: "done" }]);
    const result = await generateText({ model: unwrappedModel, tools, prompt: "go", stopWhen: stepCountIs(2) });
    const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
    expect(error?.type === "tool-error" && HarnessSessionError.is(error.error, "harness.unknown_tool_call")).toBe(true);
  });

  it("records a tool result that is not JSON as a named failure", async () => {
    const { sink, session } = open();
    const tools = { clock: tool({ description: "now", inputSchema: z.object({}), execute: async () => ({ at: Number.NaN }) }) };
    const model = scriptedV3Model([{ toolCalls: [{ toolName: "clock", args: {} }] }, { text: "done" }]);
    const result = await durableGenerateText(await session, { model, tools, prompt: "go", stopWhen: stepCountIs(3) });
    const failure = result.steps[0]?.content.find((part) => part.type === "tool-error");
    expect(failure?.type === "tool-error" && failure.error instanceof ToolResultNotJsonError).toBe(true);
    expect(sink.events.find((event) => event.type === "harness.tool_call.failed")?.payload).toMatchObject({ error: { code: "harness.tool_result_not_json" } });
  });

  it("writes through any World-like store and a context's trace", async () => {
    const stored: HarnessEventEnvelope[] = [];
    const calls: unknown[] = [];
    const store: EventStoreLike = {
      async appendEvents(runId, events) {
        const envelopes = events.map((event, index) => ({ eventId: `evt_${index}`, runId, sequence: stored.length + index + 1, type: event.type, recordedAt: "", payload: event.payload }));
        stored.push(...envelopes);
        return envelopes;
      },
      async listEvents(runId, options) {
        calls.push({ runId, options });
        return stored.filter((event) => event.type.startsWith(options?.typePrefix ?? ""));
      },
    };
    const traced: string[] = [];
    const recorder = recorderForContext({ durability: harnessEventSinkFromWorld(store, scope.runId), trace: { onEvents: (events) => traced.push(...events.map((event) => event.type)) } });
    const session = await openHarnessSession({ recorder, scope, sessionKey: "s", task: { kind: "execute_step" }, manifest: workerManifest });
    await session.complete({ output: 1 });
    expect(calls).toEqual([{ runId: scope.runId, options: { typePrefix: "harness." } }]);
    expect(traced).toEqual(["harness.session.started", "harness.session.completed"]);
    expect(stored[1]?.payload).toMatchObject({ output: 1, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 } });
  });
});

describe("interruptions", () => {
  it("leaves an aborted tool call in flight (no failed event) so that resume runs it again", async () => {
    const first = open();
    const controller = new AbortController();
    const slow = tool({
      description: "waits for the abort",
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          abortSignal?.addEventListener("abort", () => reject(new Error("aborted by caller")));
          controller.abort();
        }),
    });
    const model = scriptedV3Model([{ toolCalls: [{ toolName: "slow", args: {} }] }, { text: "done" }]);
    await durableGenerateText(await first.session, { model, tools: { slow }, prompt: "go", stopWhen: stepCountIs(3), abortSignal: controller.signal }).catch(() => undefined);
    const toolEvents = first.sink.events.filter((event) => event.type.startsWith("harness.tool_call.")).map((event) => event.type);
    expect(toolEvents).toEqual(["harness.tool_call.started"]);

    const second = open([...first.sink.events]);
    let reran = 0;
    const quick = tool({ description: "waits for the abort", inputSchema: z.object({}), execute: async () => `ran ${++reran}` });
    const result = await durableGenerateText(await second.session, { model: scriptedV3Model([{ text: "done" }]), tools: { slow: quick }, prompt: "go", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("done");
    expect(reran).toBe(1);
  });
});
