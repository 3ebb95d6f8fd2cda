/**
 * The one base error of Little Workflow. Every package's errors extend it, carry a stable `code`,
 * and can be recognised with `LittleWorkflowError.is(value)` even when two copies of this package
 * are installed (the brand is a registered symbol, not `instanceof`).
 */
const brand = Symbol.for("@little-stack/little-workflow-error");

export type LittleWorkflowErrorOptions = {
  readonly cause?: unknown;
  /** Extra machine-readable facts about the failure (paths, ids, codes). */
  readonly details?: Readonly<Record<string, unknown>>;
};

export class LittleWorkflowError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: LittleWorkflowErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, brand, { value: true, enumerable: false });
  }

  /** True for any LittleWorkflowError (from any copy of the package), optionally of one code. */
  static is(value: unknown, code?: string): value is LittleWorkflowError {
    if (typeof value !== "object" || value === null) return false;
    if ((value as Record<symbol, unknown>)[brand] !== true) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }
}
