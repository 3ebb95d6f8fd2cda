import { CanonicalJsonError, canonicalJson, maxCanonicalJsonDepth } from "@little-stack/canonical";
import { CliInputError } from "./cli-errors.js";

/**
 * Refuses a value the run's event log cannot store exactly — a number beyond a double's range
 * (`1e400` parses as Infinity), a string with a lone surrogate (`"\ud800"`, not encodable as
 * UTF-8), nesting deeper than the log's limit — before anything is opened or written, naming the
 * file and the JSONPath.
 */
export function requireStorableJson(options: { value: unknown; displayName: string; what: string }): void {
  try {
    canonicalJson(options.value);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    const problem = error.message.replace(/^Value at \S+ is not plain JSON: /, "").replace(/\.$/, "");
    const reason = /Infinity is not a finite number/.test(problem)
      ? "a number beyond the range of a 64-bit float (it would read as Infinity)"
      : /nesting deeper/.test(problem)
        ? `nesting deeper than ${maxCanonicalJsonDepth} levels`
        : problem;
    // A path 1,000 levels deep is no help on one line: its start says where.
    const path = error.path.length > 80 ? `${error.path.slice(0, 60)}…` : error.path;
    throw new CliInputError(`${options.displayName}: ${options.what} cannot be stored in the run's log: at ${path}, ${reason} — change that value`, {
      cause: error,
    });
  }
}
