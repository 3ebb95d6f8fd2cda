/**
 * Safe readers for the canonical snapshot the rules walk. Only own properties count, so a step
 * called `constructor` or a key named `__proto__` never reaches Object.prototype.
 */
export type JsonRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasField(record: JsonRecord, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

export function ownField(record: JsonRecord, key: string): unknown {
  return hasField(record, key) ? record[key] : undefined;
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

export function isIntegerInRange(value: unknown, range: { min: number; max: number }): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** Own keys of `record` that are not in `allowed`, in document order. */
export function unknownKeys(record: JsonRecord, allowed: ReadonlySet<string>): string[] {
  return Object.keys(record).filter((key) => !allowed.has(key));
}

/** Lists `allowed` for messages: `a`, `b` or `c`. */
export function listOf(allowed: Iterable<string>): string {
  const names = [...allowed].map((name) => `\`${name}\``);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}
