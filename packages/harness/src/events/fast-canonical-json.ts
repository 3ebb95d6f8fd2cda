import { canonicalJson } from "@little-stack/canonical";

/**
 * `canonicalJson` (RFC 8785) for the hot path of prompt hashing, where a long session hashes its
 * whole growing prompt on every turn. Plain JSON (plain objects, arrays, strings, finite numbers,
 * booleans, null) is written with keys sorted by UTF-16 code units and `JSON.stringify` for
 * leaves, which is byte-for-byte what `canonicalJson` produces; anything else — and any string
 * with a lone surrogate — falls back to `canonicalJson` itself, so errors and edge cases are the
 * canonical package's.
 */
export function fastCanonicalJson(value: unknown): string {
  const parts: string[] = [];
  if (!writePlain(value, parts)) return canonicalJson(value);
  const text = parts.join("");
  // JSON.stringify escapes a lone surrogate as \udXXX; canonicalJson rejects those strings.
  return lonelySurrogateEscape.test(text) ? canonicalJson(value) : text;
}

const lonelySurrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** Writes plain JSON; returns false at the first value that needs canonicalJson's judgement. */
function writePlain(value: unknown, parts: string[]): boolean {
  switch (typeof value) {
    case "string":
      parts.push(JSON.stringify(value));
      return true;
    case "boolean":
      parts.push(value ? "true" : "false");
      return true;
    case "number":
      if (!Number.isFinite(value)) return false;
      parts.push(Object.is(value, -0) ? "0" : String(value));
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) {
    parts.push("null");
    return true;
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    parts.push("[");
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) parts.push(",");
      if (!(index in value) || !writePlain(value[index], parts)) return false;
    }
    parts.push("]");
    return true;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  parts.push("{");
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (index > 0) parts.push(",");
    parts.push(JSON.stringify(key), ":");
    if (!writePlain(record[key], parts)) return false;
  }
  parts.push("}");
  return true;
}
