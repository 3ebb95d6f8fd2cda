import { CanonicalJsonError } from "./canonical-json-error.js";
import { formatJsonPath, type JsonPathSegment } from "./json-path.js";
import { rememberedText } from "./remembered-texts.js";

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, no
 * whitespace, numbers in ECMAScript `Number.prototype.toString` form, strings with the minimal
 * escaping of `JSON.stringify`. Anything that is not plain JSON throws a `CanonicalJsonError`
 * naming the JSONPath of the offending value, instead of being silently dropped or coerced the
 * way `JSON.stringify` would.
 */
export function canonicalJson(value: unknown): string {
  // Fast path for plain JSON (the overwhelming case: event payloads, prompts, LWIR documents): no
  // path stack, no cycle set. At the first value that needs judgement it gives up, and the careful
  // walk below re-runs to produce the exact error with its JSONPath.
  try {
    return writePlain(value, 0);
  } catch (error) {
    if (error !== notPlain) throw error;
  }
  return write(value, [], new Set());
}

/**
 * Nesting deeper than this is refused with a named error rather than left to overflow the stack:
 * no real document nests this deep, and a RangeError would not say where the problem is.
 */
export const maxCanonicalJsonDepth = 1000;

// JSON.stringify escapes a lone surrogate as \udXXX instead of failing, and the careful walk
// rejects it. Only the pieces JSON.stringify wrote can hold one (a hand-quoted string has no
// surrogate at all, a spliced snapshot's text passed this check when it was made), so each such
// piece is tested, not the whole text: a document that splices a large snapshot (a plan in its
// registration) is not scanned again. A match sends the value to the careful walk (a rare false
// positive, an escaped backslash before "ud8…", only costs time).
const lonelySurrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** Thrown by the fast path (and caught above) at the first value that needs the careful walk. */
const notPlain: unique symbol = Symbol("not plain JSON");

// Object keys repeat across documents ("type", "id", "needs" …): their quoted form is cached, up
// to a bound so data with ever-new keys cannot grow it without limit.
const quotedKeys = new Map<string, string>();
const quotedKeyLimit = 10_000;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    const written = JSON.stringify(key);
    if (lonelySurrogateEscape.test(written)) throw notPlain;
    quoted = `${written}:`;
    if (quotedKeys.size < quotedKeyLimit) quotedKeys.set(key, quoted);
  }
  return quoted;
}

// Ids, hashes, names and paths, most of the strings a payload holds, need no escaping: quoting them
// by hand costs a third of a JSON.stringify call. A string holding a quote, a backslash, a control
// character or any surrogate half (so also every astral character) goes through JSON.stringify;
// long strings too, where one scan is cheaper than a test and then a stringify.
const needsNoEscaping = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const handQuotedLimit = 256;

function quotedString(text: string): string {
  if (text.length <= handQuotedLimit && needsNoEscaping.test(text)) return `"${text}"`;
  const written = JSON.stringify(text);
  if (lonelySurrogateEscape.test(written)) throw notPlain;
  return written;
}

// Depth doubles as the cycle guard: a cycle nests forever, so it trips the limit and the careful
// walk then names it.
function writePlain(value: unknown, depth: number): string {
  switch (typeof value) {
    case "string":
      return quotedString(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw notPlain;
      return value === 0 ? "0" : String(value);
    case "object":
      break;
    default:
      throw notPlain;
  }
  if (value === null) return "null";
  if (depth >= maxCanonicalJsonDepth) throw notPlain;
  // A canonicalSnapshot copy (frozen, so it is what it was when its text was made) is spliced in.
  const known = rememberedText(value);
  if (known !== undefined && depth + known.height < maxCanonicalJsonDepth) return known.json;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw notPlain;
    let text = "[";
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value)) throw notPlain;
      if (index > 0) text += ",";
      text += writePlain(value[index], depth + 1);
    }
    return `${text}]`;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw notPlain;
  if (Object.getOwnPropertySymbols(value).length > 0) throw notPlain;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  sortKeys(keys);
  let text = "{";
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (index > 0) text += ",";
    text += quotedKey(key) + writePlain(record[key], depth + 1);
  }
  return `${text}}`;
}

/**
 * Sorts keys in place by UTF-16 code units (JCS order; `<` on strings compares code units, as the
 * default sort does). Payload objects have a handful of keys, often in order already: insertion
 * sort allocates nothing, where Array.prototype.sort allocates a work area for every object.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index] as string;
    let at = index - 1;
    if (!(key < (keys[at] as string))) continue;
    while (at >= 0 && key < (keys[at] as string)) {
      keys[at + 1] = keys[at] as string;
      at -= 1;
    }
    keys[at + 1] = key;
  }
}

function fail(path: readonly JsonPathSegment[], problem: string): never {
  throw new CanonicalJsonError(formatJsonPath(path), problem);
}

// String.prototype.isWellFormed exists on Node 20 (V8 11.3) but is typed only in lib ES2024.
type WellFormedCheck = string & { isWellFormed(): boolean };

function writeString(text: string, path: readonly JsonPathSegment[]): string {
  // A lone (unpaired) surrogate cannot be encoded as UTF-8, so two equal-looking strings could
  // hash differently across implementations; JCS requires rejecting them.
  if (!(text as WellFormedCheck).isWellFormed()) fail(path, "string contains a lone surrogate");
  return JSON.stringify(text);
}

// `path` is a stack shared by the whole walk (pushed and popped), so the happy path allocates no
// per-value path arrays; it is only formatted when something fails.
function write(value: unknown, path: JsonPathSegment[], ancestors: Set<object>): string {
  switch (typeof value) {
    case "string":
      return writeString(value, path);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) fail(path, `${String(value)} is not a finite number`);
      // ECMAScript number-to-string is exactly the JCS number form; -0 serializes as "0".
      return value === 0 ? "0" : String(value);
    case "undefined":
      fail(path, "undefined");
    case "bigint":
      fail(path, "bigint");
    case "function":
      fail(path, "function");
    case "symbol":
      fail(path, "symbol");
  }
  if (value === null) return "null";
  const object = value as object;
  if (ancestors.has(object)) fail(path, "cycle (the value contains itself)");
  if (path.length >= maxCanonicalJsonDepth) {
    fail(path, `nesting deeper than ${maxCanonicalJsonDepth} levels`);
  }
  ancestors.add(object);
  const text = Array.isArray(object)
    ? writeArray(object, path, ancestors)
    : writeObject(object, path, ancestors);
  ancestors.delete(object);
  return text;
}

function writeArray(array: readonly unknown[], path: JsonPathSegment[], ancestors: Set<object>): string {
  if (Object.getPrototypeOf(array) !== Array.prototype) fail(path, "array subclass");
  let text = "[";
  for (let index = 0; index < array.length; index += 1) {
    if (!(index in array)) fail([...path, index], "sparse array hole");
    path.push(index);
    text += (index > 0 ? "," : "") + write(array[index], path, ancestors);
    path.pop();
  }
  return `${text}]`;
}

function describeInstance(object: object): string {
  if (object instanceof Date) return "Date (use an ISO string)";
  if (object instanceof Map) return "Map (use a plain object)";
  if (object instanceof Set) return "Set (use an array)";
  const constructorName = (object as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === "string" && constructorName !== ""
    ? `instance of ${constructorName}`
    : "object with a non-plain prototype";
}

function writeObject(object: object, path: JsonPathSegment[], ancestors: Set<object>): string {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) fail(path, describeInstance(object));
  if (Object.getOwnPropertySymbols(object).length > 0) fail(path, "object has symbol keys");
  // The default sort compares UTF-16 code units, which is exactly the JCS key order.
  const keys = Object.keys(object).sort();
  const record = object as Record<string, unknown>;
  let text = "{";
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    path.push(key);
    // Read like JSON.stringify does: a getter's value is what gets hashed.
    text += `${index > 0 ? "," : ""}${writeString(key, path)}:${write(record[key], path, ancestors)}`;
    path.pop();
  }
  return `${text}}`;
}
