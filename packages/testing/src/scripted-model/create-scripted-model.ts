import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { ScriptedModelError, ScriptExhaustedError } from "./script-exhausted-error.js";
import { defaultScriptedUsage, type ScriptedTurn } from "./scripted-turn.js";

/**
 * An AI SDK V3 model that answers each call with the next turn of a script, through
 * `doGenerate` and `doStream` alike. It counts calls and fails loudly once the script is
 * exhausted, so a test notices every unexpected (for example repeated) model call.
 */
export type ScriptedModel = MockLanguageModelV3 & {
  /** Calls made so far (generate and stream). */
  readonly callCount: number;
  /** The prompt and settings of each call, in order. */
  readonly callOptions: readonly LanguageModelV3CallOptions[];
  /** Turns not used yet. */
  readonly remainingTurns: number;
};

export function createScriptedModel(options: {
  readonly script: readonly ScriptedTurn[];
  readonly provider?: string;
  readonly modelId?: string;
}): ScriptedModel {
  const { script } = options;
  const callOptions: LanguageModelV3CallOptions[] = [];
  const answer = (params: LanguageModelV3CallOptions): LanguageModelV3GenerateResult => {
    const index = callOptions.length;
    callOptions.push(params);
    const turn = script[index];
    if (turn === undefined) throw new ScriptExhaustedError({ source: "Scripted model", turns: script.length });
    if (turn.error !== undefined) throw new ScriptedModelError(turn.error);
    return toGenerateResult(turn, index);
  };
  const model = new MockLanguageModelV3({
    provider: options.provider ?? "scripted",
    modelId: options.modelId ?? "scripted-model",
    doGenerate: async (params) => answer(params),
    doStream: async (params) => ({ stream: toStream(answer(params)) }),
  });
  Object.defineProperties(model, {
    callCount: { get: () => callOptions.length },
    callOptions: { get: () => callOptions },
    remainingTurns: { get: () => Math.max(0, script.length - callOptions.length) },
  });
  return model as ScriptedModel;
}

function toGenerateResult(turn: ScriptedTurn, index: number): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  if (turn.reasoning !== undefined) content.push({ type: "reasoning", text: turn.reasoning });
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  (turn.toolCalls ?? []).forEach((call, callIndex) =>
    content.push({ type: "tool-call", toolCallId: `scripted_${index}_${callIndex}`, toolName: call.toolName, input: JSON.stringify(call.args) }),
  );
  const usage = turn.usage ?? defaultScriptedUsage;
  const cached = usage.cachedInputTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  return {
    content,
    finishReason: { unified: (turn.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens - cached, cacheRead: cached, cacheWrite: undefined },
      outputTokens: { total: usage.outputTokens, text: usage.outputTokens - reasoning, reasoning },
    },
    warnings: [],
  };
}

function toStream(result: LanguageModelV3GenerateResult): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const part of result.content) {
    if (part.type === "text" || part.type === "reasoning") {
      const id = `${part.type}-1`;
      parts.push({ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text }, { type: `${part.type}-end`, id });
    } else {
      parts.push(part as LanguageModelV3StreamPart);
    }
  }
  parts.push({ type: "finish", usage: result.usage, finishReason: result.finishReason });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
