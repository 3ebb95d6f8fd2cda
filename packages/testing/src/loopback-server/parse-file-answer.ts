import type { ScriptedToolCall, ScriptedTurn, ScriptedUsage } from "../scripted-model/scripted-turn.js";

/** What the request allows an answer to contain: the tools offered and whether JSON text is required. */
export type AnswerRules = {
  readonly toolNames: readonly string[];
  /** `json_object` / `json_schema` response formats: the text must be one JSON value. */
  readonly jsonText: boolean;
};

export type ParsedFileAnswer =
  | { readonly turn: ScriptedTurn; readonly problems?: never; readonly unparsable?: never }
  /** `unparsable`: the text is not JSON at all (it may be a file caught mid-write). */
  | { readonly problems: readonly string[]; readonly turn?: never; readonly unparsable?: true };

/** The form of a response file, for error messages and docs. */
export const fileAnswerForm = `{ "text"?: string, "toolCalls"?: [{ "toolName": string, "args": { ... } }], "reasoning"?: string,
  "usage"?: { "inputTokens": int, "outputTokens": int, "cachedInputTokens"?: int, "reasoningTokens"?: int } }
At least one of "text" (non-empty) or "toolCalls" (non-empty). "args" is a JSON object.`;

const answerKeys = new Set(["text", "toolCalls", "reasoning", "usage"]);
const usageKeys = new Set(["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Reads the text of a `<NNNN>.response.json` into a turn, or lists everything wrong with it (each
 * problem names the field and what to write instead) — what a provider would refuse or could
 * never produce: not JSON, unknown keys, a tool the request did not offer, args that are not an
 * object, non-JSON text where the request asked for JSON, inconsistent usage.
 */
export function parseFileAnswer(text: string, rules: AnswerRules): ParsedFileAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { problems: [`the file is not JSON (${(error as Error).message})`], unparsable: true };
  }
  if (!isObject(value)) return { problems: ["the file must hold one JSON object"] };
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    if (!answerKeys.has(key)) problems.push(`unknown key "${key}" (allowed: ${[...answerKeys].join(", ")})`);
  }
  const answer = value;
  if (answer.text !== undefined && typeof answer.text !== "string") problems.push('"text" must be a string');
  if (answer.reasoning !== undefined && typeof answer.reasoning !== "string") problems.push('"reasoning" must be a string');
  const toolCalls = toolCallsOf(answer.toolCalls, rules, problems);
  const hasText = typeof answer.text === "string" && answer.text.length > 0;
  if (!hasText && (toolCalls?.length ?? 0) === 0) problems.push('give a non-empty "text" or at least one entry in "toolCalls"');
  if (hasText && rules.jsonText) {
    try {
      JSON.parse(answer.text as string);
    } catch {
      problems.push('"text" must be JSON: the request has a JSON response_format (write the JSON value as a string, e.g. "text": "{\\"category\\": \\"billing\\"}")');
    }
  }
  const usage = usageOf(answer.usage, problems);
  if (problems.length > 0) return { problems };
  return {
    turn: {
      ...(typeof answer.text === "string" ? { text: answer.text } : {}),
      ...(typeof answer.reasoning === "string" ? { reasoning: answer.reasoning } : {}),
      ...(toolCalls === undefined || toolCalls.length === 0 ? {} : { toolCalls }),
      ...(usage === undefined ? {} : { usage }),
    },
  };
}

function toolCallsOf(value: unknown, rules: AnswerRules, problems: string[]): ScriptedToolCall[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push('"toolCalls" must be an array of { "toolName", "args" }');
    return undefined;
  }
  const offered = rules.toolNames.length === 0 ? "this request offers no tools: answer with text" : `tools offered: ${rules.toolNames.join(", ")}`;
  const calls: ScriptedToolCall[] = [];
  value.forEach((entry: unknown, index) => {
    const where = `toolCalls[${index}]`;
    if (!isObject(entry)) {
      problems.push(`${where} must be an object { "toolName", "args" }`);
      return;
    }
    for (const key of Object.keys(entry)) if (key !== "toolName" && key !== "args") problems.push(`${where} has unknown key "${key}" (allowed: toolName, args)`);
    if (typeof entry.toolName !== "string" || !rules.toolNames.includes(entry.toolName)) {
      problems.push(`${where}.toolName ${JSON.stringify(entry.toolName)} is not a tool of this request (${offered})`);
    }
    if (!isObject(entry.args)) problems.push(`${where}.args must be a JSON object (the tool's arguments), got ${entry.args === undefined ? "nothing" : JSON.stringify(entry.args).slice(0, 40)}`);
    calls.push({ toolName: String(entry.toolName), args: entry.args });
  });
  return calls;
}

function usageOf(value: unknown, problems: string[]): ScriptedUsage | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.push('"usage" must be an object { "inputTokens", "outputTokens", ... }');
    return undefined;
  }
  for (const key of Object.keys(value)) if (!usageKeys.has(key)) problems.push(`usage has unknown key "${key}" (allowed: ${[...usageKeys].join(", ")})`);
  for (const key of ["inputTokens", "outputTokens"]) if (!isCount(value[key])) problems.push(`usage.${key} must be a non-negative integer`);
  for (const key of ["cachedInputTokens", "reasoningTokens"]) if (value[key] !== undefined && !isCount(value[key])) problems.push(`usage.${key} must be a non-negative integer when given`);
  if (isCount(value.cachedInputTokens) && isCount(value.inputTokens) && value.cachedInputTokens > value.inputTokens) problems.push("usage.cachedInputTokens cannot exceed usage.inputTokens (cached tokens are a subset)");
  if (isCount(value.reasoningTokens) && isCount(value.outputTokens) && value.reasoningTokens > value.outputTokens) problems.push("usage.reasoningTokens cannot exceed usage.outputTokens (reasoning tokens are a subset)");
  return value as ScriptedUsage;
}
