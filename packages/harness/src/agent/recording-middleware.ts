import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Middleware,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { canonicalJson } from "@little-stack/canonical";
import { toErrorEnvelope } from "../contract/error-envelope.js";
import { ReplayDivergenceError } from "../errors/replay-errors.js";
import { hashModelRequest } from "../events/hash-model-request.js";
import type { ModelDelta } from "../events/harness-event-sink.js";
import type { ModelRespondedPayload } from "../events/harness-event-types.js";
import { modelCallId, modelToolCallId } from "./call-ids.js";
import { toContent, toFinishReason, toGenerateResult, toRecordedResponse, toV3Usage, toolCallInput } from "./model-response-codec.js";
import { recordModelRequest } from "./recorded-prompt.js";
import type { RecordedPrompt, SessionCore } from "./session-core.js";

type PreparedCall = {
  readonly turn: number;
  readonly callId: string;
  readonly provider: string;
  readonly modelId: string;
  readonly replay?: ModelRespondedPayload;
};

/**
 * The record/replay hook: every model call of a session goes through here. A call whose
 * response is recorded is answered from the log (the model is not invoked); otherwise the call is
 * recorded as `harness.model.called`, made, and its response committed as
 * `harness.model.responded` before the agent loop may act on it (tool calls included).
 */
export function createRecordingMiddleware(core: SessionCore): LanguageModelV3Middleware {
  return {
    specificationVersion: "v3",
    async wrapGenerate({ doGenerate, doStream, params, model }) {
      const call = await prepareCall(core, { params, model });
      if (call.replay !== undefined) {
        core.commitTurn(call.replay);
        core.stats.replayedModelCalls += 1;
        return toGenerateResult({ response: call.replay.response, callId: call.callId, modelId: call.modelId });
      }
      core.stats.liveModelCalls += 1;
      const startedAt = performance.now();
      const onDelta = core.options.recorder.onModelDelta;
      let result;
      try {
        // Someone watches the run: stream the call so text reaches them as it arrives. The
        // request (and so the prompt hash and call id) is the same either way.
        // A model that cannot stream (doStream rejects before any part) is asked with doGenerate.
        const live = onDelta === undefined ? undefined : await doStream().then((streamed) => streamed, () => undefined);
        result = live === undefined || onDelta === undefined ? await doGenerate() : await generateByStreaming(live, (kind, delta) => onDelta(deltaOf(core, call, kind, delta)));
      } catch (error) {
        await recordFailure(core, call, error, params.abortSignal);
        throw error;
      }
      const payload = respondedPayload(core, call, { content: result.content, finishReason: result.finishReason, usage: result.usage, startedAt });
      await core.append([{ type: "harness.model.responded", payload }]);
      core.commitTurn(payload);
      return {
        ...toGenerateResult({ response: payload.response, callId: call.callId, modelId: call.modelId }),
        ...(result.request === undefined ? {} : { request: result.request }),
        response: { ...result.response, id: call.callId },
        warnings: result.warnings,
      };
    },
    async wrapStream({ doStream, params, model }) {
      const call = await prepareCall(core, { params, model });
      if (call.replay !== undefined) {
        core.commitTurn(call.replay);
        core.stats.replayedModelCalls += 1;
        return { stream: replayStream(call.replay, call.modelId) };
      }
      core.stats.liveModelCalls += 1;
      const startedAt = performance.now();
      let live;
      try {
        live = await doStream();
      } catch (error) {
        await recordFailure(core, call, error, params.abortSignal);
        throw error;
      }
      return { ...live, stream: live.stream.pipeThrough(recordingTransform(core, call, params.abortSignal, startedAt)) };
    },
  };
}

async function prepareCall(core: SessionCore, options: { params: LanguageModelV3CallOptions; model: LanguageModelV3 }): Promise<PreparedCall> {
  const { runId, sessionKey, sessionId } = core.options;
  // The turn advances only when a response is committed, so an AI SDK retry of a failed call
  // reuses the same turn and call id.
  const turn = core.turn + 1;
  const callId = modelCallId({ runId, sessionKey, turn });
  const provider = options.model.provider;
  const modelId = options.model.modelId;
  const request = recordModelRequest({ provider, modelId, params: options.params });
  const promptHash = hashModelRequest(request);
  const recordedCall = core.ledger.modelCalled.get(callId);
  if (recordedCall !== undefined && recordedCall.promptHash !== promptHash) {
    throw new ReplayDivergenceError({ runId, sessionId, turn, what: "prompt", recordedHash: recordedCall.promptHash, currentHash: promptHash });
  }
  const replay = core.ledger.modelResponded.get(callId);
  const previous = core.lastPrompt;
  core.lastPrompt = { callId, messages: request.messages };
  if (replay !== undefined) return { turn, callId, provider, modelId, replay };
  if (recordedCall === undefined) {
    const stepPath = core.options.stepPath;
    const shared = previous === undefined ? 0 : sharedMessageCount(previous, core.lastPrompt);
    const recorded =
      previous === undefined || shared === 0
        ? { promptHash, request }
        : { promptHash, promptPrefix: { callId: previous.callId, messageCount: shared }, request: { ...request, messages: request.messages.slice(shared) } };
    await core.append([{ type: "harness.model.called", payload: { turn, callId, ...(stepPath === undefined ? {} : { stepPath }), ...recorded } }]);
  }
  return { turn, callId, provider, modelId };
}

/**
 * How many leading messages two prompts share, compared by canonical JSON (what `promptHash`
 * hashes), so a prompt rebuilt from the prefix is byte for byte the one sent.
 */
function sharedMessageCount(previous: RecordedPrompt, current: RecordedPrompt): number {
  const before = textsOf(previous);
  const now = textsOf(current);
  let shared = 0;
  while (shared < before.length && shared < now.length && before[shared] === now[shared]) shared += 1;
  return shared;
}

function textsOf(prompt: RecordedPrompt): readonly string[] {
  prompt.texts ??= prompt.messages.map((message) => canonicalJson(message));
  return prompt.texts;
}

function respondedPayload(
  core: SessionCore,
  call: PreparedCall,
  result: {
    content: readonly LanguageModelV3Content[];
    finishReason: LanguageModelV3FinishReason;
    usage: LanguageModelV3Usage;
    toolCallIdAt?: (position: number) => string;
    /** `performance.now()` when the live call was made. */
    startedAt: number;
  },
): ModelRespondedPayload {
  const { runId, sessionKey, stepPath } = core.options;
  const response = toRecordedResponse({
    ...result,
    toolCallIdAt: result.toolCallIdAt ?? ((index) => modelToolCallId({ runId, sessionKey, turn: call.turn, index })),
  });
  return {
    turn: call.turn,
    callId: call.callId,
    ...(stepPath === undefined ? {} : { stepPath }),
    model: { provider: call.provider, modelId: call.modelId },
    response,
    durationMs: Math.max(0, Math.round(performance.now() - result.startedAt)),
  };
}

function deltaOf(core: SessionCore, call: PreparedCall, kind: ModelDelta["kind"], delta: string): ModelDelta {
  const stepPath = core.options.stepPath;
  return { kind, callId: call.callId, turn: call.turn, ...(stepPath === undefined ? {} : { stepPath }), delta };
}

/**
 * A generate call answered through the model's stream: text and reasoning pieces go to `onDelta`
 * as they arrive, and the parts are assembled into the generate result the call would have had
 * (content in the order generate returns it: reasoning, text, tool calls). A stream error part
 * fails the call like a thrown doGenerate would.
 */
async function generateByStreaming(live: LanguageModelV3StreamResult, onDelta: (kind: ModelDelta["kind"], delta: string) => void): Promise<LanguageModelV3GenerateResult> {
  let text: string | undefined;
  let reasoning: string | undefined;
  const otherContent: LanguageModelV3Content[] = [];
  let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
  let warnings: LanguageModelV3GenerateResult["warnings"] = [];
  let metadata: { id?: string; modelId?: string; timestamp?: Date } = {};
  const reader = live.stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    switch (part.type) {
      case "text-delta":
        text = (text ?? "") + part.delta;
        safely(() => onDelta("text", part.delta));
        break;
      case "reasoning-delta":
        reasoning = (reasoning ?? "") + part.delta;
        safely(() => onDelta("reasoning", part.delta));
        break;
      case "tool-call":
      case "tool-result":
        otherContent.push(part as LanguageModelV3Content);
        break;
      case "stream-start":
        warnings = part.warnings;
        break;
      case "response-metadata":
        metadata = { ...(part.id === undefined ? {} : { id: part.id }), ...(part.modelId === undefined ? {} : { modelId: part.modelId }), ...(part.timestamp === undefined ? {} : { timestamp: part.timestamp }) };
        break;
      case "finish":
        finish = part;
        break;
      case "error":
        throw part.error instanceof Error ? part.error : new Error(`The model stream reported an error: ${String(part.error)}`);
      default:
        break;
    }
  }
  if (finish === undefined) throw new Error("The model stream ended without a finish part.");
  return {
    content: [...(reasoning === undefined ? [] : [{ type: "reasoning" as const, text: reasoning }]), ...(text === undefined ? [] : [{ type: "text" as const, text }]), ...otherContent],
    finishReason: finish.finishReason,
    usage: finish.usage,
    ...(live.request === undefined ? {} : { request: live.request }),
    response: { ...metadata, ...(live.response?.headers === undefined ? {} : { headers: live.response.headers }) },
    warnings,
  };
}

/** A watcher's failure is its own: it never fails the model call. */
function safely(deliver: () => void): void {
  try {
    deliver();
  } catch {
    // The runtime's listener reports its own errors; an app's sink that throws loses that delta only.
  }
}

async function recordFailure(core: SessionCore, call: PreparedCall, error: unknown, abortSignal?: AbortSignal): Promise<void> {
  // An aborted call was interrupted, not answered: leave it unrecorded so resume makes it again.
  if (abortSignal?.aborted === true) return;
  const { stepPath } = core.options;
  await core.append([
    {
      type: "harness.model.failed",
      payload: {
        turn: call.turn,
        callId: call.callId,
        ...(stepPath === undefined ? {} : { stepPath }),
        model: { provider: call.provider, modelId: call.modelId },
        error: toErrorEnvelope(error),
      },
    },
  ]);
}

/** A recorded response as a V3 stream: the parts streamText needs, in canonical order. */
function replayStream(payload: ModelRespondedPayload, modelId: string): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "response-metadata", id: payload.callId, modelId }];
  for (const part of toContent(payload.response)) {
    if (part.type === "reasoning" || part.type === "text") {
      const id = `${part.type}-0`;
      parts.push({ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text }, { type: `${part.type}-end`, id });
    } else {
      parts.push(part as LanguageModelV3StreamPart);
    }
  }
  parts.push({ type: "finish", usage: toV3Usage(payload.response.usage), finishReason: toFinishReason(payload.response) });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * Passes text and reasoning through as they stream, holds tool calls back until the response is
 * committed (so no tool runs on an unrecorded response), and rewrites tool call ids to the
 * session's deterministic ids.
 */
function recordingTransform(core: SessionCore, call: PreparedCall, abortSignal: AbortSignal | undefined, startedAt: number): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const { runId, sessionKey } = core.options;
  const onDelta = core.options.recorder.onModelDelta;
  // Client-executed tool calls are numbered in order of first appearance (tool-input-start or
  // tool-call); the number gives the deterministic id used on every part of that call.
  const indexByProviderId = new Map<string, number>();
  const providerExecuted = new Set<string>();
  const idFor = (providerId: string): string => {
    let index = indexByProviderId.get(providerId);
    if (index === undefined) {
      index = indexByProviderId.size;
      indexByProviderId.set(providerId, index);
    }
    return modelToolCallId({ runId, sessionKey, turn: call.turn, index });
  };
  let text: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: { index: number; part: Extract<LanguageModelV3StreamPart, { type: "tool-call" }> }[] = [];
  let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "text-delta":
          text = (text ?? "") + part.delta;
          if (onDelta !== undefined) safely(() => onDelta(deltaOf(core, call, "text", part.delta)));
          controller.enqueue(part);
          return;
        case "reasoning-delta":
          reasoning = (reasoning ?? "") + part.delta;
          if (onDelta !== undefined) safely(() => onDelta(deltaOf(core, call, "reasoning", part.delta)));
          controller.enqueue(part);
          return;
        case "tool-input-start":
          if (part.providerExecuted === true) providerExecuted.add(part.id);
          controller.enqueue(providerExecuted.has(part.id) ? part : { ...part, id: idFor(part.id) });
          return;
        case "tool-input-delta":
        case "tool-input-end":
          controller.enqueue(providerExecuted.has(part.id) ? part : { ...part, id: idFor(part.id) });
          return;
        case "tool-call":
          if (part.providerExecuted === true) {
            controller.enqueue(part);
            return;
          }
          idFor(part.toolCallId);
          toolCalls.push({ index: indexByProviderId.get(part.toolCallId) ?? 0, part });
          return;
        case "finish":
          finish = part;
          return;
        default:
          controller.enqueue(part);
      }
    },
    async flush(controller) {
      if (finish === undefined) {
        await recordFailure(core, call, new Error("The model stream ended without a finish part."), abortSignal);
        return;
      }
      toolCalls.sort((left, right) => left.index - right.index);
      const content: LanguageModelV3Content[] = [
        ...(reasoning === undefined ? [] : [{ type: "reasoning" as const, text: reasoning }]),
        ...(text === undefined ? [] : [{ type: "text" as const, text }]),
        ...toolCalls.map((entry) => entry.part),
      ];
      const payload = respondedPayload(core, call, {
        content,
        finishReason: finish.finishReason,
        usage: finish.usage,
        toolCallIdAt: (position) => idFor(toolCalls[position]?.part.toolCallId ?? `missing-${position}`),
        startedAt,
      });
      await core.append([{ type: "harness.model.responded", payload }]);
      core.commitTurn(payload);
      for (const recorded of payload.response.toolCalls ?? []) {
        controller.enqueue({ type: "tool-call", toolCallId: recorded.callId, toolName: recorded.toolName, input: toolCallInput(recorded.args) });
      }
      controller.enqueue({ ...finish, usage: toV3Usage(payload.response.usage) });
    },
  });
}
