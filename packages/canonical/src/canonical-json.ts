import { CanonicalJsonError } from "./canonical-json-error.js";
import { formatJsonPath, type JsonPathSegment } from "./json-path.js";

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, no
 * whitespace, numbers in ECMAScript `Number.prototype.toString` form, strings with the minimal
 * escaping of `JSON.stringify`. Anything that is not plain JSON throws a `CanonicalJsonError`
 * naming the JSONPath of the offending value, instead of being silently dropped or coerced the
 * way `JSON.stringify` would.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, [], new Set(), parts);
  return parts.join("");
}

// A lone (unpaired) surrogate cannot be encoded as UTF-8, so two equal-looking strings could hash
// differently across implementations; JCS requires rejecting them.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fail(path: readonly JsonPathSegment[], problem: string): never {
  throw new CanonicalJsonError(formatJsonPath(path), problem);
}

function writeString(text: string, path: readonly JsonPathSegment[], parts: string[]): void {
  if (loneSurrogate.test(text)) fail(path, "string contains a lone surrogate");
  parts.push(JSON.stringify(text));
}

function write(
  value: unknown,
  path: JsonPathSegment[],
  ancestors: Set<object>,
  parts: string[],
): void {
  switch (typeof value) {
    case "string":
      writeString(value, path, parts);
      return;
    case "boolean":
      parts.push(value ? "true" : "false");
      return;
    case "number":
      if (!Number.isFinite(value)) fail(path, `${String(value)} is not a finite number`);
      // ECMAScript number-to-string is exactly the JCS number form; -0 serializes as "0".
      parts.push(Object.is(value, -0) ? "0" : String(value));
      return;
    case "undefined":
      fail(path, "undefined");
    case "bigint":
      fail(path, "bigint");
    case "function":
      fail(path, "function");
    case "symbol":
      fail(path, "symbol");
  }
  if (value === null) {
    parts.push("null");
    return;
  }
  const object = value as object;
  if (ancestors.has(object)) fail(path, "cycle (the value contains itself)");
  ancestors.add(object);
  if (Array.isArray(object)) writeArray(object, path, ancestors, parts);
  else writeObject(object, path, ancestors, parts);
  ancestors.delete(object);
}

function writeArray(
  array: readonly unknown[],
  path: JsonPathSegment[],
  ancestors: Set<object>,
  parts: string[],
): void {
  if (Object.getPrototypeOf(array) !== Array.prototype) fail(path, "array subclass");
  parts.push("[");
  for (let index = 0; index < array.length; index += 1) {
    if (!Object.prototype.hasOwnProperty.call(array, index)) {
      fail([...path, index], "sparse array hole");
    }
    if (index > 0) parts.push(",");
    path.push(index);
    write(array[index], path, ancestors, parts);
    path.pop();
  }
  parts.push("]");
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

function writeObject(
  object: object,
  path: JsonPathSegment[],
  ancestors: Set<object>,
  parts: string[],
): void {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) fail(path, describeInstance(object));
  if (Object.getOwnPropertySymbols(object).length > 0) fail(path, "object has symbol keys");
  const keys = Object.keys(object).sort(compareUtf16);
  parts.push("{");
  let first = true;
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    path.push(key);
    if (descriptor === undefined || !("value" in descriptor)) fail(path, "accessor property");
    if (!first) parts.push(",");
    first = false;
    writeString(key, path, parts);
    parts.push(":");
    write(descriptor.value, path, ancestors, parts);
    path.pop();
  }
  parts.push("}");
}

/** JCS orders keys by UTF-16 code units, which is what `<` on JS strings compares. */
function compareUtf16(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
