/** Small, forgiving readers for `check` functions: outputs come from models and may be anything. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/** Case- and accent-insensitive "the text mentions this". */
export function mentions(text: string, term: string): boolean {
  const fold = (value: string) => value.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
  return fold(text).includes(fold(term));
}

/** JSON text with object keys sorted, so key order never decides equality. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    isRecord(entry) ? Object.fromEntries(Object.keys(entry).sort().map((key) => [key, entry[key]])) : entry,
  );
}

/** A problem when `actual` is not exactly `expected` (JSON equality, any key order), else undefined. */
export function expectEqual(label: string, actual: unknown, expected: unknown): string | undefined {
  return sortedJson(actual) === sortedJson(expected) ? undefined : `${label} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

/** A problem when `value` is not a non-empty string. */
export function expectText(label: string, value: unknown): string | undefined {
  return typeof value === "string" && value.trim().length > 0 ? undefined : `${label} should be non-empty text, got ${JSON.stringify(value)}`;
}
