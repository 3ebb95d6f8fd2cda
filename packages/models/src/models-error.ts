/**
 * The base error of this package. `@little-stack/models` may import no workspace package, so it
 * cannot extend canonical's `LittleWorkflowError`; this class has the same shape (`code`,
 * `details`, `cause`) and carries the same registered brand, so `LittleWorkflowError.is(error)`
 * from `@little-stack/canonical` recognises every error thrown here. `instanceof` against
 * canonical's class does not hold: use `is()`.
 */
const brand = Symbol.for("@little-stack/little-workflow-error");
// The names of the error's classes, most derived first: `Subclass.is()` checks it (canonical's scheme).
const lineageKey = Symbol.for("@little-stack/little-workflow-error.lineage");

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
    Object.defineProperty(this, lineageKey, { value: errorLineage(new.target), enumerable: false });
  }

  /**
   * True for an error of this class or a subclass (from any copy of the package), optionally of
   * one code; `ModelsError.is(e)` narrows `e` to it, and a subclass's `is()` to that subclass.
   */
  static is<T extends ModelsError>(this: abstract new (...args: never[]) => T, value: unknown, code?: string): value is T {
    if (typeof value !== "object" || value === null) return false;
    const record = value as Record<symbol, unknown>;
    if (record[brand] !== true) return false;
    const lineage = record[lineageKey];
    if (!Array.isArray(lineage) || !lineage.includes(this.name)) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }
}

function errorLineage(constructor: abstract new (...args: never[]) => unknown): readonly string[] {
  const names: string[] = [];
  for (let prototype: unknown = constructor.prototype; prototype !== null && prototype !== Error.prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name.length > 0) names.push(name);
  }
  return Object.freeze(names);
}
