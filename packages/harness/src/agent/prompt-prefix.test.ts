import { canonicalJson } from "@little-stack/canonical";
import { stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import { scriptedV3Model, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { HarnessScope } from "../contract/harness.js";
import { ModelPromptPrefixError, PromptHashMismatchError } from "../errors/harness-event-errors.js";
import { createEventEnvelope } from "../events/create-event-envelope.js";
import { createHarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { HarnessEventEnvelope, ModelCalledPayload } from "../events/harness-event-types.js";
import { hashModelRequest } from "../events/hash-model-request.js";
import { createMemoryHarnessEventSink } from "../events/memory-harness-event-sink.js";
import { resolveModelCallRequests } from "../events/resolve-model-call-requests.js";
import { validateHarnessEvent } from "../events/validate-harness-event.js";
import { durableGenerateText, runHarnessSession } from "./durable-generate.js";
import { recordModelRequest } from "./recorded-prompt.js";

const scope: HarnessScope = { runId: "run_00000000000000a5", logDir: "/tmp/unused", role: "planner" };
const turnCount = 50;
/** 49 turns that each look one key up, then the answer. */
const script: FixtureTurn[] = [
  ...Array.from({ length: turnCount - 1 }, (_, index): FixtureTurn => ({ toolCalls: [{ toolName: "lookup", args: { key: `key-${String(index).padStart(3, "0")}` } }] })),
  { text: "all keys looked up" },
];

async function runLoop(options: { events: readonly HarnessEventEnvelope[]; turns: readonly FixtureTurn[] }) {
  const sink = createMemoryHarnessEventSink(scope.runId, options.events);
  const model = scriptedV3Model(options.turns);
  const lookup = tool({
    description: "Looks a key up.",
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }) => ({ value: `${key}: ${"the value of this key, long enough to weigh on the prompt ".repeat(4)}` }),
  });
  const text = await runHarnessSession({
    recorder: createHarnessEventRecorder({ sink }),
    scope,
    sessionKey: "plan",
    task: { kind: "plan" },
    manifest: plannerManifest,
    body: async (session) => (await durableGenerateText(session, { model, tools: { lookup }, system: "You look keys up.", prompt: "Look up every key.", stopWhen: stepCountIs(turnCount + 5) })).text,
  });
  // What the model was sent, in the recorded (canonical) form `promptHash` hashes.
  const sent = model.calls.map((params) => canonicalJson(recordModelRequest({ provider: model.provider, modelId: model.modelId, params })));
  return { text, events: [...sink.events], sent, modelCalls: model.calls.length };
}

const calledPayloads = (events: readonly HarnessEventEnvelope[]) => events.filter((event) => event.type === "harness.model.called").map((event) => event.payload as ModelCalledPayload);
const bytesOf = (value: unknown) => Buffer.byteLength(canonicalJson(value));
const wholePrompts = (events: readonly HarnessEventEnvelope[]) => calledPayloads(resolveModelCallRequests(events)).map((payload) => canonicalJson(payload.request));

/** The log as it was written before prompt prefixes: every model.called with its whole request. */
function oldFormat(events: readonly HarnessEventEnvelope[]): HarnessEventEnvelope[] {
  return resolveModelCallRequests(events).map((event) => createEventEnvelope({ runId: event.runId, sequence: event.sequence, type: event.type, payload: event.payload }));
}

function deterministicPart(events: readonly HarnessEventEnvelope[]): unknown[] {
  return events.map((event) => {
    const { durationMs: _durationMs, ...payload } = event.payload as Record<string, unknown>;
    return { type: event.type, payload };
  });
}

describe("model calls recorded after a prompt prefix", () => {
  it("a 50-turn loop records each turn's new messages only, and its log grows linearly", async () => {
    const run = await runLoop({ events: [], turns: script });
    expect(run.text).toBe("all keys looked up");
    const called = calledPayloads(run.events);
    expect(called).toHaveLength(turnCount);
    expect(called[0]?.promptPrefix).toBeUndefined();
    expect(called[0]?.request.messages.map((message) => (message as { role: string }).role)).toEqual(["system", "user"]);
    for (let index = 1; index < turnCount; index += 1) {
      // The previous call's whole prompt, then its response and the tool result.
      expect(called[index]?.promptPrefix).toEqual({ callId: called[index - 1]?.callId, messageCount: 2 * index });
      expect(called[index]?.request.messages.map((message) => (message as { role: string }).role)).toEqual(["assistant", "tool"]);
    }
    const sizes = called.map(bytesOf);
    const newMessages = bytesOf(called[turnCount - 1]?.request.messages);
    // The last turn's record is the first's plus one turn's new messages (and the prefix reference).
    expect(sizes[turnCount - 1]).toBeLessThanOrEqual((sizes[0] ?? 0) + newMessages + 200);
    expect(Math.max(...sizes.slice(1)) - Math.min(...sizes.slice(1))).toBeLessThan(16);
    // Whole, the last prompt is dozens of times its record: what the log no longer repeats.
    const whole = wholePrompts(run.events);
    expect(Buffer.byteLength(whole[turnCount - 1] ?? "")).toBeGreaterThan(20 * (sizes[turnCount - 1] ?? 0));
    // Rebuilt, every prompt is byte for byte the one the model was sent, and hashes to promptHash.
    expect(whole).toEqual(run.sent);
    expect(calledPayloads(resolveModelCallRequests(run.events)).map((payload) => hashModelRequest(payload.request))).toEqual(called.map((payload) => payload.promptHash));
  });

  it("a session resumed with its 25th call in flight rebuilds every prompt byte for byte", async () => {
    const first = await runLoop({ events: [], turns: script });
    const inFlight = first.events.findIndex((event) => event.type === "harness.model.called" && (event.payload as ModelCalledPayload).turn === 25);
    const resumed = await runLoop({ events: first.events.slice(0, inFlight + 1), turns: script.slice(24) });
    expect(resumed.text).toBe("all keys looked up");
    expect(resumed.modelCalls).toBe(turnCount - 24);
    expect(deterministicPart(resumed.events)).toEqual(deterministicPart(first.events));
    const whole = wholePrompts(resumed.events);
    // Turns 25…50 were sent by the resumed process, after turns 1…24 replayed from the log.
    expect(whole.slice(24)).toEqual(resumed.sent);
    expect(whole).toEqual(first.sent);
  });

  it("a log written before prompt prefixes replays, and resumes with prefixes referring to its whole prompts", async () => {
    const first = await runLoop({ events: [], turns: script });
    const old = oldFormat(first.events);
    expect(calledPayloads(old).every((payload) => payload.promptPrefix === undefined)).toBe(true);
    expect(old.map((event) => validateHarnessEvent(event).type)).toHaveLength(old.length);

    const replayed = await runLoop({ events: old, turns: [] });
    expect(replayed.text).toBe("all keys looked up");
    expect(replayed.modelCalls).toBe(0);
    expect(replayed.events).toHaveLength(old.length);

    const cut = old.findIndex((event) => event.type === "harness.model.called" && (event.payload as ModelCalledPayload).turn === 10);
    const resumed = await runLoop({ events: old.slice(0, cut), turns: script.slice(9) });
    expect(resumed.text).toBe("all keys looked up");
    const called = calledPayloads(resumed.events);
    expect(called[8]?.request.messages).toHaveLength(18);
    expect(called[9]?.promptPrefix).toEqual({ callId: called[8]?.callId, messageCount: 18 });
    expect(wholePrompts(resumed.events)).toEqual(first.sent);
  });

  it("refuses a prefix it cannot resolve and a rebuilt prompt that is not the hashed one", async () => {
    const run = await runLoop({ events: [], turns: [script[0]!, script[1]!, { text: "done" }] });
    const second = run.events.findIndex((event) => event.type === "harness.model.called" && (event.payload as ModelCalledPayload).turn === 2);
    const withoutFirstCall = run.events.filter((event) => !(event.type === "harness.model.called" && (event.payload as ModelCalledPayload).turn === 1));
    expect(() => resolveModelCallRequests(withoutFirstCall)).toThrow(ModelPromptPrefixError);

    const edited = structuredClone(run.events) as HarnessEventEnvelope[];
    const payload = edited[second]!.payload as { promptPrefix: { messageCount: number } };
    payload.promptPrefix.messageCount = 1;
    expect(() => resolveModelCallRequests(edited)).toThrow(PromptHashMismatchError);
    payload.promptPrefix.messageCount = 99;
    expect(() => resolveModelCallRequests(edited)).toThrow(/has 2 messages, not the 99 the prefix takes/);

    expect(() => validateHarnessEvent({ type: "harness.model.called", payload: { ...(run.events[second]!.payload as object), promptPrefix: { callId: "mcall_x", messageCount: 0 } } })).toThrow(
      /promptPrefix\.messageCount: expected a positive integer/,
    );
  });
});
