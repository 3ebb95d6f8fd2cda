import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** The caller's AbortSignal fired; the execution was stopped. */
export class SandboxAbortedError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.aborted", message, options);
  }
}

/** `executeCode` was called with options it cannot use (non-JSON input, bad limits…). */
export class SandboxInvalidOptionsError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.invalid_options", message, options);
  }
}

/** The sandbox itself failed (worker crashed, engine fault). Not the guest's fault; retrying may help. */
export class SandboxInternalError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.internal", message, options);
  }
}
