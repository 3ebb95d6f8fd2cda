import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** One scripted planner answer: tool calls (bash, submit_workflow …) and/or text. */
export type PlannerTurn = { readonly text?: string; readonly toolCalls?: readonly { readonly toolName: string; readonly args: unknown }[] };

export type ScriptedPlannerModel = LanguageModelV3 & { readonly calls: LanguageModelV3CallOptions[] };

/**
 * A V3 model that answers call n with turn n and fails once the script is used up, so a test
 * sees every unexpected model call. (The compiler may not import @little-stack/testing.)
 */
export function scriptedPlannerModel(turns: readonly PlannerTurn[], options: { readonly modelId?: string; readonly provider?: string } = {}): ScriptedPlannerModel {
  const calls: LanguageModelV3CallOptions[] = [];
  const answer = (params: LanguageModelV3CallOptions): LanguageModelV3GenerateResult => {
    const turn = turns[calls.length];
    calls.push(params);
    if (turn === undefined) throw new Error(`scripted planner model: no turn ${calls.length} (script has ${turns.length})`);
    const content: LanguageModelV3Content[] = [];
    if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
    (turn.toolCalls ?? []).forEach((call, index) =>
      content.push({ type: "tool-call", toolCallId: `call_${calls.length}_${index}`, toolName: call.toolName, input: JSON.stringify(call.args) }),
    );
    return {
      content,
      finishReason: { unified: (turn.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: 0 },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: "v3",
    provider: options.provider ?? "scripted.chat",
    modelId: options.modelId ?? "planner-model",
    supportedUrls: {},
    calls,
    doGenerate: async (params) => answer(params),
    doStream: async (params) => {
      const result = answer(params);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of result.content) {
        if (part.type === "text") parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, { type: "text-end", id: "t" });
        else parts.push(part as LanguageModelV3StreamPart);
      }
      parts.push({ type: "finish", usage: result.usage, finishReason: result.finishReason });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
