import type { ScriptedTurn, ScriptedUsage } from "../scripted-model/scripted-turn.js";

/** Characters per token of the estimate (a common rule of thumb for English text and JSON). */
const charactersPerToken = 4;

function tokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / charactersPerToken));
}

/**
 * An ESTIMATE of a call's usage for an answer that gives none (a person or an LLM writing the
 * response file cannot know the token count a provider would report): input = the characters of
 * the request's `messages`, `tools` and `response_format` as JSON, output = the characters of the
 * text, the reasoning and the tool calls as JSON, each divided by 4 and rounded up. No cached or
 * reasoning tokens are invented.
 */
export function estimateUsage(body: Record<string, unknown>, turn: ScriptedTurn): ScriptedUsage {
  const input = JSON.stringify(body.messages ?? []).length + JSON.stringify(body.tools ?? []).length + JSON.stringify(body.response_format ?? null).length;
  const output = (turn.text ?? "").length + (turn.reasoning ?? "").length + (turn.toolCalls === undefined ? 0 : JSON.stringify(turn.toolCalls).length);
  return { inputTokens: tokens(input), outputTokens: tokens(output) };
}
