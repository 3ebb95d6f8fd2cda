import { createPrivateSlot } from "@little-stack/canonical";
import { asSchema, type ToolExecutionOptions } from "ai";
import type { HarnessSession } from "../agent/harness-session.js";
import { codeToolCallId } from "../agent/call-ids.js";
import { ToolInputValidationError, ToolNotExecutableError } from "../errors/tool-registry-errors.js";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * Calls a registered tool directly (a `tool.call` step, a `code.run` bridge call): the input is
 * validated against the tool's schema, and when a session is given the call is recorded with
 * `caller: "code"` (no turn) under a deterministic call id, so a resumed session returns the
 * recorded result instead of calling the tool again.
 */
export async function executeRegisteredTool(options: {
  readonly registry: ToolRegistry;
  readonly toolName: string;
  readonly args: unknown;
  readonly session?: HarnessSession;
  /** Position of this call among the session's code calls; defaults to the session's next index. */
  readonly callIndex?: number;
  readonly abortSignal?: AbortSignal;
  /**
   * Instead of `abortSignal`: an object whose `abortSignal` is read when the tool reads its own
   * (a harness context, whose signal may be made on first read), not before.
   */
  readonly signalFrom?: { readonly abortSignal?: AbortSignal };
}): Promise<unknown> {
  const { registry, toolName, session } = options;
  const tool = registry.get(toolName);
  const execute = tool.execute;
  if (execute === undefined) throw new ToolNotExecutableError(toolName);
  const schema = asSchema(tool.inputSchema);
  let input: unknown = options.args;
  if (schema.validate !== undefined) {
    // A Schema's validate may answer synchronously (a compiled JSON Schema does): no await then.
    const answer = schema.validate(options.args);
    const checked = isPromiseLike(answer) ? await answer : answer;
    if (!checked.success) throw new ToolInputValidationError({ name: toolName, problem: checked.error.message });
    input = checked.value;
  }
  if (session === undefined) {
    return execute.call(tool, input, executionOptions(`direct:${toolName}`, options.signalFrom ?? options));
  }
  const callIndex = options.callIndex ?? session.nextCodeCallIndex();
  const callId = codeToolCallId({ runId: session.runId, sessionKey: session.sessionKey, callIndex });
  return session.callTool({
    toolName,
    args: input,
    callId,
    callIndex,
    execute: () => execute.call(tool, input, executionOptions(callId, options.signalFrom ?? options)),
  });
}

/**
 * The tool's `abortSignal` is read from `source` when the tool reads it, not before: a step
 * attempt's signal is made on first use (a runtime's costs ~8 µs per attempt), and most tools
 * never look at it. Given no `abortSignal` at all, the options have none. The accessor is one
 * shared descriptor reading a private slot: a getter closing over `source` would give every
 * options object a hidden class of its own (old-generation garbage on every call).
 */
function executionOptions(toolCallId: string, source: { readonly abortSignal?: AbortSignal }): ToolExecutionOptions {
  const options: ToolExecutionOptions = { toolCallId, messages: [] };
  if (!("abortSignal" in source)) return options;
  signalSource.attach(options, source);
  return Object.defineProperty(options, "abortSignal", lazyAbortSignal);
}

const signalSource = createPrivateSlot<{ readonly abortSignal?: AbortSignal }>();
const lazyAbortSignal = signalSource.accessor((source) => source.abortSignal, { configurable: true });

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
