import type { ExpressionPathSegment } from "../expressions/expression-ast.js";

/**
 * What a schema says about reading `segments` below a value it describes:
 * - `ok`: the path can exist; `schema` is what it reads (undefined when the schema no longer says);
 * - `impossible`: no value the schema accepts has that path — `at` segments were read before the
 *   one that cannot exist, and `problem` says why ("is an array: it has no property "length"").
 * Conservative: whatever the schema does not rule out is `ok`, so a finding built on
 * `impossible` never rejects a path that could resolve at run time.
 */
export type SchemaPathVerdict =
  | { readonly kind: "ok"; readonly schema: unknown }
  | { readonly kind: "impossible"; readonly at: number; readonly problem: string };

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON types a schema node allows, or undefined when it does not restrict them. */
function allowedTypes(node: Node): Set<string> | undefined {
  const fromType = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type.filter((entry): entry is string => typeof entry === "string") : undefined;
  const constant = Object.hasOwn(node, "const") ? [jsonTypeOf(node.const)] : undefined;
  const fromEnum = Array.isArray(node.enum) ? node.enum.map(jsonTypeOf) : undefined;
  const lists = [fromType, constant, fromEnum].filter((list): list is string[] => list !== undefined);
  if (lists.length === 0) return undefined;
  // integer is a number; the intersection of every restriction is what may occur.
  const normalized = lists.map((list) => new Set(list.map((type) => (type === "integer" ? "number" : type))));
  const [first, ...others] = normalized as [Set<string>, ...Set<string>[]];
  return new Set([...first].filter((type) => others.every((other) => other.has(type))));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : typeof value;
}

function describeTypes(types: ReadonlySet<string>): string {
  const list = [...types];
  if (list.length === 0) return "never a value";
  const named = list.map((type) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`);
  if (named.length === 1) return named[0]!;
  return `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
}

function isIndex(segment: ExpressionPathSegment): boolean {
  return typeof segment === "number" || /^(0|[1-9][0-9]*)$/.test(segment);
}

/** One step of the walk: the schema of `node[segment]`, or why it cannot exist. */
function step(node: unknown, segment: ExpressionPathSegment): { schema: unknown } | { problem: string } {
  if (node === false) return { problem: "never has a value (its schema is false)" };
  if (!isNode(node)) return { schema: undefined };
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches !== undefined) {
    const possible = branches.map((branch) => step(branch, segment)).filter((result): result is { schema: unknown } => "schema" in result);
    if (possible.length === 0) {
      const first = step(branches[0], segment);
      return "problem" in first ? first : { schema: undefined };
    }
    // Several branches may allow it: the walk can no longer say which schema applies.
    return { schema: possible.length === 1 ? possible[0]!.schema : undefined };
  }
  const types = allowedTypes(node);
  const mayBeObject = types === undefined || types.has("object");
  const mayBeArray = types === undefined || types.has("array");
  if (isIndex(segment)) {
    if (mayBeArray && (types !== undefined || node.items !== undefined)) return { schema: node.items };
    if (mayBeObject) return propertyOf(node, String(segment));
    return { problem: `is ${describeTypes(types!)}: it has no index ${String(segment)}` };
  }
  if (mayBeObject && (types !== undefined || node.properties !== undefined || node.additionalProperties !== undefined || !mayBeArray)) {
    return propertyOf(node, String(segment));
  }
  if (types === undefined) return { schema: undefined };
  const lengthHint = segment === "length" && (types.has("array") || types.has("string")) ? " (use len(…) for its length)" : "";
  return { problem: `is ${describeTypes(types)}: it has no property "${segment}"${lengthHint}` };
}

function propertyOf(node: Node, key: string): { schema: unknown } | { problem: string } {
  const properties = isNode(node.properties) ? node.properties : {};
  if (Object.hasOwn(properties, key)) return { schema: properties[key] };
  if (node.additionalProperties === false) {
    const known = Object.keys(properties);
    return { problem: `has no property "${key}" (its schema allows only ${known.length === 0 ? "no properties" : known.map((name) => `"${name}"`).join(", ")})` };
  }
  return { schema: isNode(node.additionalProperties) ? node.additionalProperties : undefined };
}

/** Walks `segments` down `schema` (lwir.md §5 subset). Never throws. */
export function schemaAtPath(schema: unknown, segments: readonly ExpressionPathSegment[]): SchemaPathVerdict {
  let current: unknown = schema;
  for (let index = 0; index < segments.length; index += 1) {
    if (current === undefined || current === true) return { kind: "ok", schema: undefined };
    const next = step(current, segments[index]!);
    if ("problem" in next) return { kind: "impossible", at: index, problem: next.problem };
    current = next.schema;
  }
  return { kind: "ok", schema: current };
}
