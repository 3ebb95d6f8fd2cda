/**
 * The hot path of `appendEvents`: RFC 8785 canonical JSON for the plain values payloads nearly
 * always are, about twice as fast as the general canonicalizer because it skips the path
 * bookkeeping that only error messages need. Anything unusual — a surrogate anywhere, a
 * non-finite number, a non-plain object, symbol keys, an accessor, a hole, nesting deeper than
 * 64 — makes it return `undefined`, and the caller uses `canonicalJson` from
 * `@little-stack/canonical`, which gives the exact answer or the named error. For every value it
 * accepts the output is identical to `canonicalJson` (checked by fast-canonical-json.test.ts).
 */
export function fastCanonicalJson(value: unknown): string | undefined {
  try {
    return write(value, 0);
  } catch (error) {
    if (error === bail) return undefined;
    throw error;
  }
}

const bail = Symbol("bail");
const surrogate = /[\uD800-\uDFFF]/;
const maxDepth = 64;
const hasOwn = Object.prototype.hasOwnProperty;

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case "string":
      if (surrogate.test(value)) throw bail;
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw bail;
      // -0 is written as 0; every other number in ECMAScript's shortest form, as JCS requires.
      return value === 0 ? "0" : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      throw bail;
  }
  if (value === null) return "null";
  if (depth >= maxDepth) throw bail;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw bail;
    let text = "[";
    for (let index = 0; index < value.length; index += 1) {
      if (!hasOwn.call(value, index)) throw bail;
      if (index > 0) text += ",";
      text += write(value[index], depth + 1);
    }
    return `${text}]`;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw bail;
  if (Object.getOwnPropertySymbols(value).length > 0) throw bail;
  // Default sort compares UTF-16 code units, which is the order JCS prescribes.
  const keys = Object.keys(value).sort();
  let text = "{";
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !("value" in descriptor)) throw bail;
    if (surrogate.test(key)) throw bail;
    if (index > 0) text += ",";
    text += `${JSON.stringify(key)}:${write(descriptor.value, depth + 1)}`;
  }
  return `${text}}`;
}
