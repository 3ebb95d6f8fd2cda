import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** The guest code threw (or rejected) and did not catch it; `details.stack` is the guest stack. */
export class SandboxGuestError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.guest_threw", message, options);
  }
}

/** `run()` awaited something that can never settle (there are no timers and no pending tool calls). */
export class SandboxGuestStalledError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.guest_stalled", message, options);
  }
}
