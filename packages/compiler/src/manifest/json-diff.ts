import { canonicalJson } from "@little-stack/canonical";

function show(value: unknown): string {
  if (value === undefined) return "(absent)";
  const text = canonicalJson(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Readable differences between two JSON values, one line per changed leaf:
 * `snapshot.tools[0].description: "Parse a PDF." → "Parse a PDF file."`. Arrays of equal length
 * are compared element by element; anything else that differs is shown whole.
 */
export function jsonDiff(stored: unknown, current: unknown, path: string): string[] {
  if (canonicalJson(stored ?? null) === canonicalJson(current ?? null) && (stored === undefined) === (current === undefined)) return [];
  if (isPlainObject(stored) && isPlainObject(current)) {
    const keys = [...new Set([...Object.keys(stored), ...Object.keys(current)])].sort();
    return keys.flatMap((key) => jsonDiff(stored[key], current[key], `${path}.${key}`));
  }
  if (Array.isArray(stored) && Array.isArray(current) && stored.length === current.length) {
    return stored.flatMap((item, index) => jsonDiff(item, current[index], `${path}[${index}]`));
  }
  return [`${path}: ${show(stored)} → ${show(current)}`];
}
