import type { Tool, ToolExecutionOptions, ToolSet } from "ai";
import type { SessionCore } from "./session-core.js";

/**
 * Wraps each executable tool so every call the model makes is recorded as
 * `harness.tool_call.*` with `caller: "model"` and its turn, and a recorded result is returned on
 * replay without invoking the tool. The AI SDK's `toolCallId` is already the session's
 * deterministic call id (the recording middleware rewrites it), so tools can use it as an
 * idempotency key. Tools without `execute` are passed through untouched.
 */
export function wrapToolsForSession<TOOLS extends ToolSet>(core: SessionCore, tools: TOOLS): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [toolName, original] of Object.entries(tools)) {
    const execute = original.execute;
    if (execute === undefined) {
      wrapped[toolName] = original;
      continue;
    }
    wrapped[toolName] = {
      ...original,
      execute: (input: unknown, options: ToolExecutionOptions) =>
        core.runToolCall({
          callId: options.toolCallId,
          caller: "model",
          turn: core.requireToolCallTurn(options.toolCallId, toolName),
          toolName,
          args: input,
          execute: () => execute.call(original, input, options),
          ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
        }),
    } as Tool;
  }
  return wrapped as TOOLS;
}
