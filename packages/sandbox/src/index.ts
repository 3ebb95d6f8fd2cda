// Public surface of @little-stack/sandbox: an explicit list of named exports.
export { type CodeRunFile } from "./code-files.js";
export { executeCode, type ExecuteCodeOptions, type ExecuteCodeResult, type ToolCallRequest } from "./execute-code.js";
export { defaultSandboxLimits, type SandboxLimits } from "./sandbox-limits.js";
export { shutdownSandboxWorkers, warmUpSandbox } from "./worker-pool.js";
export { SandboxError, type SandboxErrorOptions } from "./errors/sandbox-error.js";
export {
  SandboxFileHashMismatchError,
  SandboxInvalidEntrypointError,
  SandboxInvalidFilePathError,
  SandboxModuleNotFoundError,
  SandboxSyntaxError,
} from "./errors/source-errors.js";
export { SandboxGuestError, SandboxGuestStalledError } from "./errors/guest-errors.js";
export {
  SandboxOutOfMemoryError,
  SandboxOutputTooLargeError,
  SandboxTimeoutError,
  SandboxToolCallLimitError,
} from "./errors/limit-errors.js";
export { SandboxOutputNotJsonError } from "./errors/output-errors.js";
export { SandboxToolCallError, SandboxToolNotAllowedError } from "./errors/tool-errors.js";
export { SandboxAbortedError, SandboxInternalError, SandboxInvalidOptionsError } from "./errors/run-errors.js";
