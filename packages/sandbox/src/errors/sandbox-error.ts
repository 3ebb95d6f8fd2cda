/**
 * The base error of @little-stack/sandbox. The sandbox may import no workspace package, so this
 * mirrors canonical's LittleWorkflowError (code, message, details, cause) and carries the same
 * registered brand: `LittleWorkflowError.is(sandboxError)` is true, and so is `SandboxError.is()`.
 */
const brand = Symbol.for("@little-stack/little-workflow-error");

export type SandboxErrorOptions = {
  readonly cause?: unknown;
  /** Machine-readable facts about the failure (file, line, tool name, limit, guest logs…). */
  readonly details?: Readonly<Record<string, unknown>>;
};

export class SandboxError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: SandboxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, brand, { value: true, enumerable: false });
  }

  /** True for any Little Workflow error (any package, any copy), optionally of one code. */
  static is(value: unknown, code?: string): value is SandboxError {
    if (typeof value !== "object" || value === null) return false;
    if ((value as Record<symbol, unknown>)[brand] !== true) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }
}
