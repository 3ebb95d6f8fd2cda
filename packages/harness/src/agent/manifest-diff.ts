import { canonicalJson } from "@little-stack/canonical";

/** One readable line per field that differs between two JSON values: `path: old → new`. */
export function diffJson(stored: unknown, current: unknown, path = "$"): string[] {
  if (canonicalJson(stored ?? null) === canonicalJson(current ?? null)) return [];
  const bothObjects =
    typeof stored === "object" && stored !== null && !Array.isArray(stored) && typeof current === "object" && current !== null && !Array.isArray(current);
  if (!bothObjects) return [`${path}: ${show(stored)} → ${show(current)}`];
  const storedRecord = stored as Record<string, unknown>;
  const currentRecord = current as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(storedRecord), ...Object.keys(currentRecord)])].sort();
  return keys.flatMap((key) => diffJson(storedRecord[key], currentRecord[key], `${path}.${key}`));
}

function show(value: unknown): string {
  return value === undefined ? "(absent)" : canonicalJson(value);
}
