/**
 * A `--type` / `--step` pattern: `*` matches any run of characters (`harness.tool_call.*`), every
 * other character matches itself. Anchored at both ends.
 */
export function globMatcher(pattern: string): (value: string) => boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`, "s");
  return (value) => regex.test(value);
}

/** The literal text before the first `*`, for a storage-side prefix filter. */
export function literalPrefix(pattern: string): string {
  const star = pattern.indexOf("*");
  return star === -1 ? pattern : pattern.slice(0, star);
}
