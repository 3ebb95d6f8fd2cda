import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** The guest called a tool that is not in `allowedTools` and did not catch the refusal. */
export class SandboxToolNotAllowedError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.tool_not_allowed", message, options);
  }
}

/** A host tool call failed (or returned non-JSON) and the guest did not catch it. `cause` is the host error. */
export class SandboxToolCallError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.tool_call_failed", message, options);
  }
}
