import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** `run()` resolved to something that is not plain JSON; `details.path` points at it. */
export class SandboxOutputNotJsonError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.output_not_json", message, options);
  }
}
