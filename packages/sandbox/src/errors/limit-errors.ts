import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** The execution ran past `limits.timeoutMs` (wall clock, tool calls included). */
export class SandboxTimeoutError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.timeout", message, options);
  }
}

/** The guest used all of its fixed WebAssembly memory (`limits.memoryBytes`). */
export class SandboxOutOfMemoryError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.out_of_memory", message, options);
  }
}

/** The JSON text of the output is larger than `limits.maxOutputBytes`. */
export class SandboxOutputTooLargeError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.output_too_large", message, options);
  }
}

/** The guest tried more than `limits.maxToolCalls` tool calls and did not catch the refusal. */
export class SandboxToolCallLimitError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.tool_call_limit", message, options);
  }
}
