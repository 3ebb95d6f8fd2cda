import { formatJsonPath } from "@little-stack/canonical";

/** Where a narrower schema can produce a value the wider one rejects, and why. */
export type SchemaImplicationGap = { readonly path: string; readonly problem: string };

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(node: Node): Set<string> | undefined {
  const raw = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  if (raw !== undefined) return new Set(raw.filter((entry): entry is string => typeof entry === "string"));
  const values = Array.isArray(node.enum) ? node.enum : Object.hasOwn(node, "const") ? [node.const] : undefined;
  return values === undefined ? undefined : new Set(values.map(jsonTypeOf));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeCovered(type: string, wide: ReadonlySet<string>): boolean {
  return wide.has(type) || (type === "integer" && wide.has("number"));
}

function valuesOf(node: Node): unknown[] | undefined {
  if (Object.hasOwn(node, "const")) return [node.const];
  return Array.isArray(node.enum) ? node.enum : undefined;
}

const same = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

class Checker {
  readonly gaps: SchemaImplicationGap[] = [];

  private gap(path: readonly (string | number)[], problem: string): void {
    if (this.gaps.length < 20) this.gaps.push({ path: formatJsonPath(path), problem });
  }

  /** Reports where a value valid for `narrow` may be invalid for `wide` (conservative: unknown → gap). */
  check(narrow: unknown, wide: unknown, path: readonly (string | number)[]): void {
    if (wide === true || wide === undefined || (isNode(wide) && Object.keys(wide).every((key) => ["title", "description", "examples", "$schema"].includes(key)))) return;
    if (narrow === false) return;
    if (wide === false) return this.gap(path, "the workflow schema accepts no value here");
    if (!isNode(wide)) return;
    if (narrow === true || narrow === undefined || !isNode(narrow)) return this.gap(path, "the step's schema does not restrict this value, the workflow's does");
    const narrowBranches = Array.isArray(narrow.anyOf) ? narrow.anyOf : Array.isArray(narrow.oneOf) ? narrow.oneOf : undefined;
    if (narrowBranches !== undefined) {
      narrowBranches.forEach((branch) => this.check(branch, wide, path));
      return;
    }
    const wideBranches = Array.isArray(wide.anyOf) ? wide.anyOf : Array.isArray(wide.oneOf) ? wide.oneOf : undefined;
    if (wideBranches !== undefined) {
      const fits = wideBranches.some((branch) => {
        const probe = new Checker();
        probe.check(narrow, branch, path);
        return probe.gaps.length === 0;
      });
      if (!fits) this.gap(path, "fits none of the workflow schema's anyOf/oneOf branches");
      return;
    }
    this.checkTypes(narrow, wide, path);
    this.checkValues(narrow, wide, path);
    this.checkBounds(narrow, wide, path);
    const wideTypes = typesOf(wide);
    if (wideTypes === undefined || wideTypes.has("object")) this.checkObject(narrow, wide, path);
    if (wideTypes === undefined || wideTypes.has("array")) this.checkArray(narrow, wide, path);
  }

  private checkTypes(narrow: Node, wide: Node, path: readonly (string | number)[]): void {
    const wideTypes = typesOf(wide);
    if (wideTypes === undefined) return;
    const narrowTypes = typesOf(narrow);
    if (narrowTypes === undefined) return this.gap(path, `the workflow schema requires ${[...wideTypes].join(" or ")}, the step's allows any type`);
    const extra = [...narrowTypes].filter((type) => !typeCovered(type, wideTypes));
    if (extra.length > 0) this.gap(path, `the step may produce ${extra.join(" or ")}, the workflow schema requires ${[...wideTypes].join(" or ")}`);
  }

  private checkValues(narrow: Node, wide: Node, path: readonly (string | number)[]): void {
    const wideValues = valuesOf(wide);
    if (wideValues === undefined) return;
    const narrowValues = valuesOf(narrow);
    if (narrowValues === undefined) return this.gap(path, `the workflow schema allows only ${wideValues.map((value) => JSON.stringify(value)).join(", ")}, the step's any value`);
    const extra = narrowValues.filter((value) => !wideValues.some((allowed) => same(allowed, value)));
    if (extra.length > 0) this.gap(path, `the step may produce ${extra.map((value) => JSON.stringify(value)).join(", ")}, which the workflow schema does not allow`);
  }

  private checkBounds(narrow: Node, wide: Node, path: readonly (string | number)[]): void {
    const lower: readonly string[] = ["minimum", "minLength", "minItems"];
    for (const keyword of [...lower, "maximum", "maxLength", "maxItems"]) {
      const limit = wide[keyword];
      // Zod writes ±Number.MAX_SAFE_INTEGER on every .int(): no JSON number a step produces can be exactly past it.
      if (typeof limit !== "number" || Math.abs(limit) >= Number.MAX_SAFE_INTEGER) continue;
      const own = narrow[keyword];
      const holds = typeof own === "number" && (lower.includes(keyword) ? own >= limit : own <= limit);
      if (!holds) this.gap(path, `the workflow schema has ${keyword} ${limit}, the step's ${typeof own === "number" ? `${keyword} ${own}` : `no ${keyword}`}`);
    }
  }

  private checkObject(narrow: Node, wide: Node, path: readonly (string | number)[]): void {
    const wideProperties = isNode(wide.properties) ? wide.properties : {};
    const narrowProperties = isNode(narrow.properties) ? narrow.properties : {};
    const narrowRequired = new Set(Array.isArray(narrow.required) ? narrow.required : []);
    for (const key of Array.isArray(wide.required) ? wide.required : []) {
      if (!narrowRequired.has(key)) this.gap([...path, String(key)], "required by the workflow schema, optional in the step's");
    }
    const closed = narrow.additionalProperties === false;
    for (const [key, schema] of Object.entries(wideProperties)) {
      if (Object.hasOwn(narrowProperties, key)) this.check(narrowProperties[key], schema, [...path, key]);
      else if (!closed) this.check(narrow.additionalProperties ?? true, schema, [...path, key]);
    }
    if (wide.additionalProperties === undefined || wide.additionalProperties === true) return;
    for (const [key, schema] of Object.entries(narrowProperties)) {
      if (!Object.hasOwn(wideProperties, key)) this.check(schema, wide.additionalProperties, [...path, key]);
    }
    // An open narrow object against a closed wide one is not a gap: what extra keys a value carries
    // is up to the producer (strict structured outputs close every object), not the plan. A
    // property the narrow schema declares and the wide one forbids is (above).
    if (closed || wide.additionalProperties === false) return;
    this.check(narrow.additionalProperties ?? true, wide.additionalProperties, [...path, "*"]);
  }

  private checkArray(narrow: Node, wide: Node, path: readonly (string | number)[]): void {
    if (wide.items === undefined) return;
    this.check(narrow.items ?? true, wide.items, [...path, 0]);
  }
}

/**
 * Whether every value `narrow` accepts is accepted by `wide` (lwir.md §5 subset): an empty list
 * means yes. Conservative — a construct it cannot compare counts as a gap — except for two things
 * the producer, not the plan, decides: extra keys of an open object where the wide schema is
 * closed, and Zod's ±MAX_SAFE_INTEGER bounds on integers.
 */
export function schemaImplicationGaps(narrow: unknown, wide: unknown): readonly SchemaImplicationGap[] {
  const checker = new Checker();
  checker.check(narrow, wide, []);
  return checker.gaps;
}
