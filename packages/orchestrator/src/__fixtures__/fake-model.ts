import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3Prompt } from "@ai-sdk/provider";

export type FakeTurn = {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly toolName: string; readonly args: unknown }[];
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
};

/** A V3 model that answers from the prompt it is given (not from a call counter), so a fresh process resuming a session answers the same way. */
export type FakeModel = LanguageModelV3 & { readonly calls: number; readonly prompts: readonly LanguageModelV3Prompt[] };

export function createFakeModel(options: {
  readonly provider?: string;
  readonly modelId?: string;
  readonly respond: (prompt: LanguageModelV3Prompt, call: LanguageModelV3CallOptions) => FakeTurn | Promise<FakeTurn>;
}): FakeModel {
  const prompts: LanguageModelV3Prompt[] = [];
  const generate = async (call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
    prompts.push(call.prompt);
    const turn = await options.respond(call.prompt, call);
    const content: LanguageModelV3Content[] = [];
    if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
    (turn.toolCalls ?? []).forEach((toolCall, index) => content.push({ type: "tool-call", toolCallId: `fake_${prompts.length}_${index}`, toolName: toolCall.toolName, input: JSON.stringify(toolCall.args) }));
    const usage = turn.usage ?? { inputTokens: 100, outputTokens: 20 };
    return {
      content,
      finishReason: { unified: (turn.toolCalls?.length ?? 0) > 0 ? "tool-calls" : "stop", raw: undefined },
      usage: { inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: 0 } },
      warnings: [],
    };
  };
  const model = {
    specificationVersion: "v3" as const,
    provider: options.provider ?? "fake",
    modelId: options.modelId ?? "fake-model",
    supportedUrls: {},
    doGenerate: generate,
    doStream: async () => {
      throw new Error("the fake model answers doGenerate only");
    },
  };
  Object.defineProperties(model, { calls: { get: () => prompts.length }, prompts: { get: () => prompts } });
  return model as unknown as FakeModel;
}

/** Every text part of the prompt, joined (what a fake decides its answer from). */
export function promptText(prompt: LanguageModelV3Prompt): string {
  const parts: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === "string") parts.push(message.content);
    else for (const part of message.content) if (part.type === "text") parts.push(part.text);
  }
  return parts.join("\n");
}

/** The tool results in the prompt, by tool name, in order. */
export function toolResults(prompt: LanguageModelV3Prompt): { readonly toolName: string; readonly output: unknown }[] {
  const results: { toolName: string; output: unknown }[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") results.push({ toolName: part.toolName, output: part.output });
  }
  return results;
}

/** A planner that submits `lwirFor(prompt)` on its first turn (one model call per session). */
export function createFakePlanner(lwirFor: (prompt: string) => unknown, options: { readonly modelId?: string } = {}): FakeModel {
  return createFakeModel({
    provider: "openai.chat",
    modelId: options.modelId ?? "gpt-5",
    respond: (prompt) => ({ toolCalls: [{ toolName: "submit_workflow", args: { lwir: lwirFor(promptText(prompt)) } }] }),
  });
}
