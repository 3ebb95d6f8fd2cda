import { defaultScriptedUsage, type ScriptedTurn } from "../scripted-model/scripted-turn.js";

/**
 * Builds OpenAI chat-completions bodies (JSON, and the chunks of an SSE stream) from a scripted
 * turn, with usage in the OpenAI shape (`prompt_tokens_details.cached_tokens`,
 * `completion_tokens_details.reasoning_tokens`).
 */
type ChatToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

function toolCallsOf(turn: ScriptedTurn, requestIndex: number): ChatToolCall[] {
  return (turn.toolCalls ?? []).map((call, index) => ({
    id: `call_${requestIndex}_${index}`,
    type: "function",
    function: { name: call.toolName, arguments: JSON.stringify(call.args) },
  }));
}

function usageOf(turn: ScriptedTurn): Record<string, unknown> {
  const usage = turn.usage ?? defaultScriptedUsage;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

function finishReasonOf(turn: ScriptedTurn): string {
  return (turn.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop";
}

export function chatCompletionBody(options: { turn: ScriptedTurn; requestIndex: number; model: string }): Record<string, unknown> {
  const { turn, requestIndex, model } = options;
  const toolCalls = toolCallsOf(turn, requestIndex);
  return {
    id: `chatcmpl-loopback-${requestIndex}`,
    object: "chat.completion",
    created: 1_700_000_000 + requestIndex,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          ...(turn.reasoning === undefined ? {} : { reasoning_content: turn.reasoning }),
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        finish_reason: finishReasonOf(turn),
      },
    ],
    usage: usageOf(turn),
  };
}

/** The `data:` payloads of a streamed answer; the caller adds `data: [DONE]`. */
export function chatCompletionChunks(options: { turn: ScriptedTurn; requestIndex: number; model: string }): Record<string, unknown>[] {
  const { turn, requestIndex, model } = options;
  const base = { id: `chatcmpl-loopback-${requestIndex}`, object: "chat.completion.chunk", created: 1_700_000_000 + requestIndex, model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const chunks: Record<string, unknown>[] = [chunk({ role: "assistant", content: "" })];
  if (turn.reasoning !== undefined) chunks.push(chunk({ reasoning_content: turn.reasoning }));
  // Text arrives in a few pieces, as a real stream would deliver it.
  for (const piece of splitText(turn.text ?? "")) chunks.push(chunk({ content: piece }));
  toolCallsOf(turn, requestIndex).forEach((call, index) => {
    const half = Math.ceil(call.function.arguments.length / 2);
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] }));
  });
  chunks.push(chunk({}, finishReasonOf(turn)));
  chunks.push({ ...base, choices: [], usage: usageOf(turn) });
  return chunks;
}

function splitText(text: string): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
