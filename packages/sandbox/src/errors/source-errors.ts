import { SandboxError, type SandboxErrorOptions } from "./sandbox-error.js";

/** A `files` key is not a safe relative path, or a file is not `{ content, sha256 }`. */
export class SandboxInvalidFilePathError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.invalid_file_path", message, options);
  }
}

/** A file's content does not hash to the `sha256` the plan recorded for it. */
export class SandboxFileHashMismatchError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.file_hash_mismatch", message, options);
  }
}

/** The entrypoint is missing from `files`, is not .ts/.js, or does not export `run`. */
export class SandboxInvalidEntrypointError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.invalid_entrypoint", message, options);
  }
}

/** A file does not parse; `details` has `file`, `line` and `column` (1-based). */
export class SandboxSyntaxError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.syntax_error", message, options);
  }
}

/** An import (static or dynamic) named something other than one of the step's own files. */
export class SandboxModuleNotFoundError extends SandboxError {
  constructor(message: string, options: SandboxErrorOptions = {}) {
    super("sandbox.module_not_found", message, options);
  }
}
