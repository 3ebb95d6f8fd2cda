import type { LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3GenerateResult, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { ModelCallUsage, ModelResponse, ToolCallRequest } from "../events/harness-event-types.js";

/**
 * Converts between the AI SDK's V3 generate result and the recorded `response` of
 * `harness.model.responded`. Live results pass through the same round trip as replayed ones, so
 * the agent loop sees identical responses either way.
 */
export function toRecordedUsage(usage: LanguageModelV3Usage): ModelCallUsage {
  const inputTokens = usage.inputTokens.total ?? 0;
  const outputTokens = usage.outputTokens.total ?? 0;
  return {
    inputTokens,
    outputTokens,
    // Clamped: a provider reporting more cached than total input would make the event invalid.
    cachedInputTokens: Math.min(usage.inputTokens.cacheRead ?? 0, inputTokens),
    reasoningTokens: Math.min(usage.outputTokens.reasoning ?? 0, outputTokens),
  };
}

export function toV3Usage(usage: ModelCallUsage): LanguageModelV3Usage {
  const cached = usage.cachedInputTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens - reasoning, reasoning },
  };
}

/** Parses tool input text; input that is not JSON is kept as its raw text. */
function parseArgs(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

export function toRecordedResponse(options: {
  readonly content: readonly LanguageModelV3Content[];
  readonly finishReason: LanguageModelV3FinishReason;
  readonly usage: LanguageModelV3Usage;
  /** Deterministic id for the `index`-th tool call. */
  readonly toolCallIdAt: (index: number) => string;
}): ModelResponse {
  let text: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: ToolCallRequest[] = [];
  for (const part of options.content) {
    if (part.type === "text") text = (text ?? "") + part.text;
    else if (part.type === "reasoning") reasoning = (reasoning ?? "") + part.text;
    else if (part.type === "tool-call" && part.providerExecuted !== true) {
      toolCalls.push({ callId: options.toolCallIdAt(toolCalls.length), toolName: part.toolName, args: parseArgs(part.input) });
    }
  }
  return {
    ...(text === undefined ? {} : { text }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    finishReason: options.finishReason.unified,
    usage: toRecordedUsage(options.usage),
  };
}

export function toolCallInput(args: unknown): string {
  return JSON.stringify(args);
}

export function toContent(response: ModelResponse): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (response.reasoning !== undefined) content.push({ type: "reasoning", text: response.reasoning });
  if (response.text !== undefined) content.push({ type: "text", text: response.text });
  for (const call of response.toolCalls ?? []) {
    content.push({ type: "tool-call", toolCallId: call.callId, toolName: call.toolName, input: toolCallInput(call.args) });
  }
  return content;
}

const finishReasons = new Set(["stop", "length", "content-filter", "tool-calls", "error", "other"]);

export function toFinishReason(response: ModelResponse): LanguageModelV3FinishReason {
  const recorded = response.finishReason;
  const unified = recorded !== undefined && finishReasons.has(recorded) ? recorded : (response.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop";
  return { unified: unified as LanguageModelV3FinishReason["unified"], raw: recorded };
}

export function toGenerateResult(options: { readonly response: ModelResponse; readonly callId: string; readonly modelId: string }): LanguageModelV3GenerateResult {
  return {
    content: toContent(options.response),
    finishReason: toFinishReason(options.response),
    usage: toV3Usage(options.response.usage),
    response: { id: options.callId, modelId: options.modelId },
    warnings: [],
  };
}
