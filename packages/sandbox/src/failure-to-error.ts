import { capErrorText, errorTextLimits } from "./error-text-limits.js";
import { SandboxGuestError, SandboxGuestStalledError } from "./errors/guest-errors.js";
import {
  SandboxOutOfMemoryError,
  SandboxOutputTooLargeError,
  SandboxTimeoutError,
  SandboxToolCallLimitError,
} from "./errors/limit-errors.js";
import { SandboxOutputNotJsonError } from "./errors/output-errors.js";
import { SandboxInternalError } from "./errors/run-errors.js";
import type { SandboxError } from "./errors/sandbox-error.js";
import { SandboxInvalidEntrypointError, SandboxModuleNotFoundError, SandboxSyntaxError } from "./errors/source-errors.js";
import { SandboxToolCallError, SandboxToolNotAllowedError } from "./errors/tool-errors.js";
import type { SandboxLimits } from "./sandbox-limits.js";
import type { ExecutionFailure } from "./worker-protocol.js";

export type FailureContext = {
  readonly entrypoint: string;
  readonly limits: SandboxLimits;
  readonly allowedTools: readonly string[];
  readonly logs: readonly string[];
  readonly toolCallCount: number;
  /** Host errors of failed tool calls, by call index: the `cause` of SandboxToolCallError. */
  readonly toolErrors: ReadonlyMap<number, unknown>;
};

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** The guest stack without the sandbox's own prelude frames (they are not the author's code). */
function guestStack(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.includes("<sandbox-prelude>"))
    .join("\n");
}

function firstGuestFrame(stack: string): string | undefined {
  return stack
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line.startsWith("at "));
}

/** The failure with its texts within the limits (the worker cuts them already; this is the host's own bound). */
function boundedFailure(failure: ExecutionFailure): ExecutionFailure {
  const bounded: Record<string, unknown> = { ...failure };
  for (const [key, max] of [["name", errorTextLimits.name], ["message", errorTextLimits.message], ["stack", errorTextLimits.stack], ["problem", errorTextLimits.message]] as const) {
    const value = bounded[key];
    if (typeof value === "string") bounded[key] = capErrorText(value, max);
  }
  return bounded as ExecutionFailure;
}

/** Turns what the worker reported into the named error the caller (a fixer, a person) acts on. */
export function sandboxErrorFromFailure(reported: ExecutionFailure, context: FailureContext): SandboxError {
  const { entrypoint, limits } = context;
  const failure = boundedFailure(reported);
  const base = { entrypoint, logs: context.logs, toolCallCount: context.toolCallCount };
  switch (failure.kind) {
    case "syntax_error":
      return new SandboxSyntaxError(
        `Syntax error in ${failure.file} at line ${failure.line}, column ${failure.column}: ${failure.message}. Fix the code there; nothing ran.`,
        { details: { ...base, file: failure.file, line: failure.line, column: failure.column, problem: failure.message } },
      );
    case "module_not_found":
      return new SandboxModuleNotFoundError(failure.message, {
        details: { ...base, importer: failure.importer, specifier: failure.specifier },
      });
    case "invalid_entrypoint":
      return new SandboxInvalidEntrypointError(`Entrypoint ${entrypoint} cannot be run: ${failure.message}.`, { details: base });
    case "guest_threw": {
      const stack = guestStack(failure.stack);
      const frame = firstGuestFrame(stack);
      return new SandboxGuestError(
        `The code threw ${failure.name}: ${failure.message}${frame ? ` (${frame})` : ""}. Fix the code or catch the error.`,
        { details: { ...base, name: failure.name, problem: failure.message, stack } },
      );
    }
    case "guest_stalled":
      return new SandboxGuestStalledError(
        `run() in ${entrypoint} never settled: it awaits a promise that nothing can resolve (the sandbox has no timers, ` +
          "and no tool call was pending). Await tools.* calls or return a value.",
        { details: base },
      );
    case "timeout":
      return new SandboxTimeoutError(
        `The code did not finish within ${limits.timeoutMs} ms (limits.timeoutMs) and was stopped. ` +
          "Look for an endless loop or too much work per call, or raise the limit.",
        { details: { ...base, timeoutMs: limits.timeoutMs } },
      );
    case "out_of_memory":
      return new SandboxOutOfMemoryError(
        `The code ran out of memory (limits.memoryBytes = ${mebibytes(limits.memoryBytes)}) and was stopped. ` +
          "Work on smaller pieces of data, or raise the limit.",
        { details: { ...base, memoryBytes: limits.memoryBytes, problem: failure.message } },
      );
    case "output_too_large":
      return new SandboxOutputTooLargeError(
        `run() returned ${failure.bytes} bytes of JSON, more than limits.maxOutputBytes (${limits.maxOutputBytes}). ` +
          "Return a summary, or write large data through a tool and return a reference.",
        { details: { ...base, bytes: failure.bytes, maxOutputBytes: limits.maxOutputBytes } },
      );
    case "output_not_json":
      return new SandboxOutputNotJsonError(
        `run() returned a value that is not JSON: at ${failure.path}, ${failure.problem}. ` +
          "Return plain objects, arrays, strings, finite numbers, booleans and null.",
        { details: { ...base, path: failure.path, problem: failure.problem } },
      );
    case "tool_not_allowed":
      return new SandboxToolNotAllowedError(
        `The code called tools.${failure.toolName}, which this step may not use (allowed: ${
          context.allowedTools.length === 0 ? "none" : context.allowedTools.join(", ")
        }). Add it to permissions.tools or remove the call.`,
        { details: { ...base, toolName: failure.toolName, allowedTools: context.allowedTools } },
      );
    case "tool_call_failed":
      return new SandboxToolCallError(
        `tools.${failure.toolName} (call ${failure.callIndex}) failed and the code did not catch it: ${failure.message}`,
        {
          cause: context.toolErrors.get(failure.callIndex),
          details: { ...base, toolName: failure.toolName, callIndex: failure.callIndex, problem: failure.message },
        },
      );
    case "tool_call_limit":
      return new SandboxToolCallLimitError(
        `The code made more than ${limits.maxToolCalls} tool calls (limits.maxToolCalls); tools.${failure.toolName} was refused. ` +
          "Batch the work into fewer calls, or raise the limit.",
        { details: { ...base, toolName: failure.toolName, maxToolCalls: limits.maxToolCalls } },
      );
    case "internal":
      return new SandboxInternalError(`The sandbox failed (not the code's fault): ${failure.message}. Retrying may help.`, {
        details: base,
      });
  }
}
