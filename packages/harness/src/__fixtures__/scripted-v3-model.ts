import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/**
 * A small scripted model for the harness's own tests (the public one lives in
 * @little-stack/testing, which depends on this package). Each call answers with the next turn.
 */
export type FixtureTurn = {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly toolName: string; readonly args: unknown }[];
  readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number; readonly reasoning?: number };
};

export type FixtureModel = MockLanguageModelV3 & { readonly calls: LanguageModelV3CallOptions[] };

export function scriptedV3Model(turns: readonly FixtureTurn[]): FixtureModel {
  const calls: LanguageModelV3CallOptions[] = [];
  const next = (params: LanguageModelV3CallOptions): LanguageModelV3GenerateResult => {
    const turn = turns[calls.length];
    calls.push(params);
    if (turn === undefined) throw new Error(`fixture model script exhausted after ${turns.length} turns`);
    const content: LanguageModelV3Content[] = [];
    if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
    (turn.toolCalls ?? []).forEach((call, index) =>
      content.push({ type: "tool-call", toolCallId: `provider-${calls.length}-${index}`, toolName: call.toolName, input: JSON.stringify(call.args) }),
    );
    const usage = turn.usage ?? { input: 10, output: 5 };
    return {
      content,
      finishReason: { unified: (turn.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: usage.input, noCache: usage.input - (usage.cached ?? 0), cacheRead: usage.cached ?? 0, cacheWrite: undefined },
        outputTokens: { total: usage.output, text: usage.output - (usage.reasoning ?? 0), reasoning: usage.reasoning ?? 0 },
      },
      warnings: [],
    };
  };
  const model = new MockLanguageModelV3({
    provider: "fixture",
    modelId: "scripted-1",
    doGenerate: async (params) => next(params),
    doStream: async (params) => {
      const result = next(params);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of result.content) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, { type: "text-end", id: "t" });
        } else {
          parts.push(part as LanguageModelV3StreamPart);
        }
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
  });
  return Object.assign(model, { calls });
}
