/**
 * The one base error of Little Workflow. Every package's errors extend it, carry a stable `code`,
 * and can be recognised with `LittleWorkflowError.is(value)` even when two copies of this package
 * are installed (the brand is a registered symbol, not `instanceof`). `Subclass.is(value)`
 * narrows to that subclass: each error records the names of its classes (its lineage) under a
 * second registered symbol, so the check holds across package copies as well.
 */
const brand = Symbol.for("@little-stack/little-workflow-error");
const lineageKey = Symbol.for("@little-stack/little-workflow-error.lineage");

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
    Object.defineProperty(this, lineageKey, { value: errorLineage(new.target), enumerable: false });
  }

  /**
   * True for an error of this class or a subclass (from any copy of the package), optionally of
   * one code: `LittleWorkflowError.is(e)` for any Little Workflow error, `LwirValidationError.is(e)`
   * for that class only (and TypeScript narrows `e` to it).
   */
  static is<T extends LittleWorkflowError>(this: abstract new (...args: never[]) => T, value: unknown, code?: string): value is T {
    return isBrandedError(value, this, code);
  }
}

/**
 * The names of an error class and its ancestors up to (excluding) `Error`, most derived first
 * (sandbox and models, which cannot import this package, record the same lineage).
 */
function errorLineage(constructor: abstract new (...args: never[]) => unknown): readonly string[] {
  const names: string[] = [];
  for (let prototype: unknown = constructor.prototype; prototype !== null && prototype !== Error.prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name.length > 0) names.push(name);
  }
  return Object.freeze(names);
}

function isBrandedError(value: unknown, target: { readonly name: string }, code: string | undefined): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<symbol, unknown>;
  if (record[brand] !== true) return false;
  if (target.name !== "LittleWorkflowError") {
    const lineage = record[lineageKey];
    if (!Array.isArray(lineage) || !lineage.includes(target.name)) return false;
  }
  return code === undefined || (value as { code?: unknown }).code === code;
}
