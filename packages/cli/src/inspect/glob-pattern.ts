import { CliUsageError } from "../cli-errors.js";

/** Longest `--type` / `--step` pattern accepted; longer is a usage error, not a slow match. */
export const maxPatternLength = 1000;

/**
 * A `--type` / `--step` pattern: `*` matches any run of characters (`harness.tool_call.*`), every
 * other character matches itself. Anchored at both ends.
 *
 * Matched without a regular expression: `^a.*b.*c$` backtracks exponentially on patterns of many
 * stars against a value that fails late (`************Z` took seconds). The literal pieces between
 * stars are found left to right, each at its first occurrence after the previous one — for
 * star-only globs the leftmost match is always the right one, so nothing is ever retried and a
 * value is scanned once per piece.
 */
export function globMatcher(pattern: string, option = "--type"): (value: string) => boolean {
  if (pattern.length > maxPatternLength) {
    throw new CliUsageError(`${option} pattern is ${pattern.length} characters long; the limit is ${maxPatternLength} — shorten it`);
  }
  const pieces = pattern.split("*");
  if (pieces.length === 1) return (value) => value === pattern;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== "");
  const minimumLength = first.length + last.length + middle.reduce((sum, piece) => sum + piece.length, 0);
  return (value) => {
    if (value.length < minimumLength || !value.startsWith(first) || !value.endsWith(last)) return false;
    let from = first.length;
    const end = value.length - last.length;
    for (const piece of middle) {
      const at = value.indexOf(piece, from);
      if (at === -1 || at + piece.length > end) return false;
      from = at + piece.length;
    }
    return true;
  };
}

/** The literal text before the first `*`, for a storage-side prefix filter. */
export function literalPrefix(pattern: string): string {
  const star = pattern.indexOf("*");
  return star === -1 ? pattern : pattern.slice(0, star);
}
