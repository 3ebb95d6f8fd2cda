/**
 * The base error of this package. `@little-stack/models` may import no workspace package, so it
 * cannot extend canonical's `LittleWorkflowError`; this class has the same shape (`code`,
 * `details`, `cause`) and carries the same registered brand, so `LittleWorkflowError.is(error)`
 * from `@little-stack/canonical` recognises every error thrown here. `instanceof` against
 * canonical's class does not hold: use `is()`.
 */
const brand = Symbol.for("@little-stack/little-workflow-error");

export type ModelsErrorOptions = {
  readonly cause?: unknown;
  /** Extra machine-readable facts about the failure (field paths, keys, values). */
  readonly details?: Readonly<Record<string, unknown>>;
};

export class ModelsError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: ModelsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, brand, { value: true, enumerable: false });
  }

  /** True for any Little Workflow error (from any package or copy), optionally of one code. */
  static is(value: unknown, code?: string): value is ModelsError {
    if (typeof value !== "object" || value === null) return false;
    if ((value as Record<symbol, unknown>)[brand] !== true) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }
}
