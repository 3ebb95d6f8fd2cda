import type { ModelMessage } from "ai";

/** How many times the model called `toolName` in the conversation so far (assistant messages). */
export function countToolCalls(messages: readonly ModelMessage[], toolName: string): number {
  let count = 0;
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "tool-call" && part.toolName === toolName) count += 1;
  }
  return count;
}

/** One executed call of a tool, in call order across the loop's steps. */
export type ToolCallOutcome = { readonly toolCallId: string; readonly input: unknown; readonly output: unknown };

type StepLike = { readonly toolResults: readonly { readonly toolCallId: string; readonly toolName: string; readonly input: unknown; readonly output: unknown }[] };

/** The results of every call of `toolName` over an agent loop's steps, in order. */
export function toolCallOutcomes(steps: readonly StepLike[], toolName: string): ToolCallOutcome[] {
  const outcomes: ToolCallOutcome[] = [];
  for (const step of steps) {
    for (const result of step.toolResults) {
      if (result.toolName === toolName) outcomes.push({ toolCallId: result.toolCallId, input: result.input, output: result.output });
    }
  }
  return outcomes;
}
