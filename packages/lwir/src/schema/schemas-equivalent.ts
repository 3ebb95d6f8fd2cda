import { canonicalJson } from "@little-stack/canonical";

const annotations = new Set(["$schema", "title", "description", "examples"]);

/**
 * A schema with what normalization adds or drops taken out: `$schema` and the annotation
 * keywords, and `additionalProperties: false` (Zod's `z.object` emits it, hand-written JSON
 * Schema usually leaves it out). What remains decides which values are accepted.
 */
function comparable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(comparable);
  if (typeof schema !== "object" || schema === null) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (annotations.has(key)) continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "required" && Array.isArray(value)) {
      result[key] = [...value].sort();
      continue;
    }
    // Property names are data, not keywords: keep every one, compare their schemas.
    result[key] = key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, comparable(child)]))
      : comparable(value);
  }
  return result;
}

/**
 * True when two schemas differ at most by normalization (`$schema`, annotations,
 * `additionalProperties: false`, key order, the order of `required`) — how a fixed plan's or a planner's copy of a
 * workflow schema is compared with the definition's.
 */
export function schemasEquivalent(left: unknown, right: unknown): boolean {
  try {
    return canonicalJson(comparable(left) ?? null) === canonicalJson(comparable(right) ?? null);
  } catch {
    return false;
  }
}
