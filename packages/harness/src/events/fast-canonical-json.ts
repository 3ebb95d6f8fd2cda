import { canonicalJson } from "@little-stack/canonical";

/**
 * `canonicalJson` (RFC 8785) for the hot paths: prompt hashing (a long session hashes its whole
 * growing prompt on every turn), event ids and payload copies. Plain JSON (plain objects, arrays,
 * strings, finite numbers, booleans, null) is written with keys sorted by UTF-16 code units and
 * `JSON.stringify` for strings, which is byte-for-byte what `canonicalJson` produces; anything
 * else — and any string with a lone surrogate — falls back to `canonicalJson` itself, so errors and
 * edge cases are the canonical package's.
 */
export function fastCanonicalJson(value: unknown): string {
  let text: string;
  try {
    text = writePlain(value);
  } catch (error) {
    if (error === notPlain) return canonicalJson(value);
    throw error;
  }
  // JSON.stringify escapes a lone surrogate as \udXXX; canonicalJson rejects those strings.
  return lonelySurrogateEscape.test(text) ? canonicalJson(value) : text;
}

const lonelySurrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** Thrown (and caught above) at the first value that needs canonicalJson's judgement. */
const notPlain: unique symbol = Symbol("not plain JSON");

// Object keys repeat across messages ("role", "type", "text" …): their quoted form is cached,
// up to a bound so that data with ever-new keys cannot grow it without limit.
const quotedKeys = new Map<string, string>();
const quotedKeyLimit = 10_000;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < quotedKeyLimit) quotedKeys.set(key, quoted);
  }
  return quoted;
}

function writePlain(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw notPlain;
      return Object.is(value, -0) ? "0" : String(value);
    case "object":
      break;
    default:
      throw notPlain;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw notPlain;
    let out = "[";
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value)) throw notPlain;
      if (index > 0) out += ",";
      out += writePlain(value[index]);
    }
    return `${out}]`;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw notPlain;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = "{";
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (index > 0) out += ",";
    out += quotedKey(key) + writePlain(record[key]);
  }
  return `${out}}`;
}
