/** One answer of a scripted model or of the loopback server: text, tool calls and token usage. */
export type ScriptedToolCall = {
  readonly toolName: string;
  readonly args: unknown;
};

export type ScriptedUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Subset of inputTokens (prompt cache hits). */
  readonly cachedInputTokens?: number;
  /** Subset of outputTokens. */
  readonly reasoningTokens?: number;
};

export type ScriptedTurn = {
  readonly text?: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: ScriptedUsage;
  /** Makes this turn fail instead of answering (a provider error). */
  readonly error?: string;
};

export const defaultScriptedUsage: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };
