import type { ExpressionPathSegment } from "../expressions/expression-ast.js";

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mayBeNull(node: Node): boolean {
  return node.type === "null" || (Array.isArray(node.type) && node.type.includes("null")) || (Array.isArray(node.enum) && node.enum.includes(null));
}

/**
 * Where reading `segments` below a value of `schema` can find nothing although every value fits
 * the schema: a property the schema declares but does not require, an array index past `minItems`,
 * or a read below a value that may be `null`. `at` is the number of segments read before that
 * point. Undefined when the schema guarantees the whole path, or stops saying (open objects,
 * `anyOf`, no schema) — so a finding built on it is never about a path the schema cannot judge.
 */
export function firstOptionalRead(schema: unknown, segments: readonly ExpressionPathSegment[]): { readonly at: number; readonly why: string } | undefined {
  let current: unknown = schema;
  for (let index = 0; index < segments.length; index += 1) {
    if (!isNode(current)) return undefined;
    const branches = Array.isArray(current.anyOf) ? current.anyOf : Array.isArray(current.oneOf) ? current.oneOf : undefined;
    if (mayBeNull(current) || branches?.some((branch) => isNode(branch) && mayBeNull(branch)) === true) return { at: index, why: "may be null" };
    // Other unions: which branch applies is the data's to say.
    if (branches !== undefined) return undefined;
    const segment = segments[index]!;
    const properties = isNode(current.properties) ? current.properties : undefined;
    const key = String(segment);
    if (properties !== undefined && Object.hasOwn(properties, key)) {
      const required = Array.isArray(current.required) && current.required.includes(key);
      if (!required) return { at: index, why: `may have no "${key}" (the schema does not require it)` };
      current = properties[key];
      continue;
    }
    const position = typeof segment === "number" ? segment : /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : undefined;
    if (position !== undefined && (current.type === "array" || current.items !== undefined)) {
      const minItems = typeof current.minItems === "number" ? current.minItems : 0;
      if (position >= minItems) return { at: index, why: `may have fewer than ${position + 1} item${position === 0 ? "" : "s"} (minItems ${minItems})` };
      current = current.items;
      continue;
    }
    return undefined;
  }
  return undefined;
}
