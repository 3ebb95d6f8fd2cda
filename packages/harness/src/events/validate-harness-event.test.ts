import { CanonicalText, canonicalJson, sha256Digest } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { plannerManifest, workerManifest } from "../__fixtures__/manifests.js";
import { hashHarnessManifest } from "../contract/hash-harness-manifest.js";
import {
  CostOnEventError,
  HarnessEventFieldError,
  HarnessEventNotJsonError,
  HarnessEventValidationError,
  InconsistentUsageError,
  InvalidHarnessRoleError,
  InvalidHarnessTaskKindError,
  ManifestHashMismatchError,
  PromptHashMismatchError,
  ToolCallTurnError,
  UnknownHarnessEventTypeError,
} from "../errors/harness-event-errors.js";
import { createHarnessEventRecorder } from "./harness-event-recorder.js";
import type { ModelRequest } from "./harness-event-types.js";
import { createMemoryHarnessEventSink } from "./memory-harness-event-sink.js";
import { validateHarnessEvent } from "./validate-harness-event.js";

const request: ModelRequest = {
  model: "fixture:scripted-1",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [{ name: "lookup", digest: sha256Digest({ description: "x" }) }],
};

const valid = {
  started: {
    type: "harness.session.started",
    payload: { runId: "run_1", role: "planner", task: { kind: "plan" }, manifest: plannerManifest, manifestHash: hashHarnessManifest(plannerManifest) },
  },
  completed: {
    type: "harness.session.completed",
    payload: { runId: "run_1", output: { ok: true }, usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 } },
  },
  failed: { type: "harness.session.failed", payload: { runId: "run_1", error: { name: "Error", message: "boom" } } },
  called: { type: "harness.model.called", payload: { turn: 1, promptHash: sha256Digest(request), request } },
  responded: {
    type: "harness.model.responded",
    payload: {
      turn: 1,
      callId: "mcall_1",
      model: { provider: "fixture", modelId: "scripted-1" },
      response: { text: "ok", toolCalls: [{ callId: "tcall_1", toolName: "lookup", args: { q: 1 } }], usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 3, reasoningTokens: 1 } },
    },
  },
  modelFailed: {
    type: "harness.model.failed",
    payload: { turn: 1, callId: "mcall_1", model: { provider: "fixture", modelId: "scripted-1" }, error: { name: "APICallError", message: "503" } },
  },
  toolStarted: { type: "harness.tool_call.started", payload: { turn: 1, callId: "tcall_1", caller: "model", toolName: "lookup", args: { q: 1 } } },
  toolSucceeded: {
    type: "harness.tool_call.succeeded",
    payload: { callId: "tcall_2", caller: "code", toolName: "lookup", args: {}, callIndex: 0, result: [1, 2], durationMs: 3 },
  },
  toolFailed: {
    type: "harness.tool_call.failed",
    payload: { turn: 2, callId: "tcall_3", caller: "model", toolName: "lookup", args: {}, error: { name: "Error", message: "no" }, durationMs: 1 },
  },
  stepStarted: { type: "harness.execute_step.started", payload: { runId: "run_1", stepId: "a", uses: "tool.call", stepPath: "a", visitIndex: 0 } },
  stepSucceeded: { type: "harness.execute_step.succeeded", payload: { runId: "run_1", stepId: "a", uses: "tool.call", stepPath: "a", visitIndex: 0, output: null } },
} as const;

type Mutation = (payload: Record<string, any>) => void;

function mutated(event: { type: string; payload: unknown }, mutate: Mutation): { type: string; payload: unknown } {
  const payload = structuredClone(event.payload) as Record<string, any>;
  mutate(payload);
  return { type: event.type, payload };
}

describe("validateHarnessEvent", () => {
  it("attaches the sealed canonical text of the payload it checked, except to a model call", () => {
    for (const event of Object.values(valid)) {
      const checked = validateHarnessEvent(event);
      expect(checked.payload).toBe(event.payload);
      if (event.type === "harness.model.called") {
        expect(checked.canonicalPayload).toBeUndefined();
      } else {
        expect(CanonicalText.isSealed(checked.canonicalPayload)).toBe(true);
        expect(checked.canonicalPayload!.json).toBe(canonicalJson(event.payload));
      }
    }
  });

  it("accepts a well-formed event of every type", () => {
    for (const event of Object.values(valid)) expect(validateHarnessEvent(event).type).toBe(event.type);
    const worker = { ...workerManifest, modelSlotId: "gpt-test" };
    expect(() =>
      validateHarnessEvent({
        type: "harness.session.started",
        payload: { runId: "run_1", role: "worker.ai-generate", task: { kind: "execute_step" }, manifest: worker, manifestHash: hashHarnessManifest(worker) },
      }),
    ).not.toThrow();
  });

  const cases: [string, { type: string; payload: unknown }, new (...args: any[]) => HarnessEventValidationError, string][] = [
    ["an unknown type", { type: "harness.model.guessed", payload: {} }, UnknownHarnessEventTypeError, "$.type"],
    ["a non-object payload", { type: "harness.session.failed", payload: "boom" }, HarnessEventFieldError, "$.payload"],
    ["an unknown role", mutated(valid.started, (p) => (p.role = "assistant")), InvalidHarnessRoleError, "$.payload.role"],
    ["an unknown task kind", mutated(valid.started, (p) => (p.task.kind = "execute")), InvalidHarnessTaskKindError, "$.payload.task.kind"],
    ["a manifestHash that is not the manifest's", mutated(valid.started, (p) => (p.manifest.skillsHash = "sha256:changed")), ManifestHashMismatchError, "$.payload.manifestHash"],
    ["a manifest missing a field of its role", mutated(valid.started, (p) => delete p.manifest.plannerModelSlotId), HarnessEventFieldError, "$.payload.manifest.plannerModelSlotId"],
    ["a missing runId", mutated(valid.completed, (p) => delete p.runId), HarnessEventFieldError, "$.payload.runId"],
    ["costUsd in session usage", mutated(valid.completed, (p) => (p.usage.costUsd = 0.01)), CostOnEventError, "$.payload.usage.costUsd"],
    ["costUsd in a model response usage", mutated(valid.responded, (p) => (p.response.usage.costUsd = 0)), CostOnEventError, "$.payload.response.usage.costUsd"],
    ["costUsd on the payload itself", mutated(valid.responded, (p) => (p.costUsd = 1)), CostOnEventError, "$.payload.costUsd"],
    ["costUsd in an array of a harness field", mutated(valid.completed, (p) => (p.notes = [{ kind: "x" }, { detail: { costUsd: 2 } }])), CostOnEventError, "$.payload.notes[1].detail.costUsd"],
    ["a fractional token count", mutated(valid.completed, (p) => (p.usage.inputTokens = 1.5)), HarnessEventFieldError, "$.payload.usage.inputTokens"],
    ["cached tokens above input tokens", mutated(valid.responded, (p) => (p.response.usage.cachedInputTokens = 11)), InconsistentUsageError, "$.payload.response.usage.cachedInputTokens"],
    ["reasoning tokens above output tokens", mutated(valid.completed, (p) => (p.usage.reasoningTokens = 6)), InconsistentUsageError, "$.payload.usage.reasoningTokens"],
    ["a promptHash that is not the request's", mutated(valid.called, (p) => (p.request.messages[0].content[0].text = "changed")), PromptHashMismatchError, "$.payload.promptHash"],
    ["a turn of 0", mutated(valid.called, (p) => (p.turn = 0)), HarnessEventFieldError, "$.payload.turn"],
    ["a response without usage", mutated(valid.responded, (p) => delete p.response.usage), HarnessEventFieldError, "$.payload.response.usage"],
    ["a response without the model identity", mutated(valid.responded, (p) => delete p.model.provider), HarnessEventFieldError, "$.payload.model.provider"],
    ["a model tool call without turn", mutated(valid.toolStarted, (p) => delete p.turn), ToolCallTurnError, "$.payload.turn"],
    ["a code tool call with a turn", mutated(valid.toolSucceeded, (p) => (p.turn = 1)), ToolCallTurnError, "$.payload.turn"],
    ["a failed model tool call without turn", mutated(valid.toolFailed, (p) => delete p.turn), ToolCallTurnError, "$.payload.turn"],
    ["an unknown caller", mutated(valid.toolStarted, (p) => (p.caller = "user")), HarnessEventFieldError, "$.payload.caller"],
    ["a succeeded call without result", mutated(valid.toolSucceeded, (p) => delete p.result), HarnessEventFieldError, "$.payload.result"],
    ["a failed call without error", mutated(valid.toolFailed, (p) => delete p.error), HarnessEventFieldError, "$.payload.error"],
    ["an error envelope without name", mutated(valid.failed, (p) => delete p.error.name), HarnessEventFieldError, "$.payload.error.name"],
    ["a non-JSON value in a model request", mutated(valid.called, (p) => (p.request.messages[0].content[0].text = Number.POSITIVE_INFINITY)), HarnessEventNotJsonError, "$.payload.request.messages[0].content[0].text"],
    ["a non-JSON value in a payload", mutated(valid.toolSucceeded, (p) => (p.result = [Number.NaN])), HarnessEventNotJsonError, "$.payload.result[0]"],
    ["an unknown step kind", mutated(valid.stepStarted, (p) => (p.uses = "ai.chat")), HarnessEventFieldError, "$.payload.uses"],
    ["a succeeded step without output", mutated(valid.stepSucceeded, (p) => delete p.output), HarnessEventFieldError, "$.payload.output"],
  ];

  it.each(cases)("rejects %s with a named error naming the field", (_label, event, errorClass, path) => {
    let thrown: unknown;
    try {
      validateHarnessEvent(event);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(errorClass);
    expect((thrown as HarnessEventValidationError).path).toBe(path);
    expect((thrown as Error).message).toContain(event.type);
  });

  it("lets user data carry a costUsd key (tool args and results are not usage)", () => {
    expect(() => validateHarnessEvent(mutated(valid.toolSucceeded, (p) => (p.result = { costUsd: 3 })))).not.toThrow();
  });
});

describe("createHarnessEventRecorder", () => {
  it("appends nothing from a batch that holds one malformed event", async () => {
    const sink = createMemoryHarnessEventSink("run_1");
    const recorder = createHarnessEventRecorder({ sink });
    await expect(recorder.append([valid.started, mutated(valid.completed, (p) => (p.usage.costUsd = 1))])).rejects.toBeInstanceOf(CostOnEventError);
    expect(sink.events).toHaveLength(0);
    const stored = await recorder.append([valid.started, valid.completed]);
    expect(stored.map((event) => [event.sequence, event.type])).toEqual([
      [1, "harness.session.started"],
      [2, "harness.session.completed"],
    ]);
    expect(stored[0]?.eventId).toMatch(/^evt_[0-9a-f]{16}$/);
  });
});
