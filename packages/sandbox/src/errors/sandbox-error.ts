/**
 * The base error of @little-stack/sandbox. The sandbox may import no workspace package, so this
 * mirrors canonical's LittleWorkflowError (code, message, details, cause) and carries the same
 * registered brand: `LittleWorkflowError.is(sandboxError)` is true, and so is `SandboxError.is()`.
 */
const brand = Symbol.for("@little-stack/little-workflow-error");
// The names of the error's classes, most derived first: `Subclass.is()` checks it (canonical's scheme).
const lineageKey = Symbol.for("@little-stack/little-workflow-error.lineage");

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
    Object.defineProperty(this, lineageKey, { value: errorLineage(new.target), enumerable: false });
  }

  /**
   * True for an error of this class or a subclass (from any copy of the package), optionally of
   * one code; `SandboxError.is(e)` narrows `e` to it, and a subclass's `is()` to that subclass.
   */
  static is<T extends SandboxError>(this: abstract new (...args: never[]) => T, value: unknown, code?: string): value is T {
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
