import { InvalidRunOptionsError } from "../errors/runtime-config-errors.js";

const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `"30m"`, `"90s"`, `"1.5h"`, `"250ms"` or a number of milliseconds → milliseconds. */
export function parseTimeout(value: string | number): number {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) throw new InvalidRunOptionsError("timeout", `must be a positive number of milliseconds, got ${String(value)}`);
    return value;
  }
  const match = typeof value === "string" ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(value) : null;
  if (match === null) {
    throw new InvalidRunOptionsError("timeout", `must be a duration like "30m", "90s", "250ms", "2h" or a number of milliseconds, got ${JSON.stringify(value)}`);
  }
  const ms = Number(match[1]) * unitMs[match[2]!]!;
  if (ms <= 0) throw new InvalidRunOptionsError("timeout", `must be positive, got ${JSON.stringify(value)}`);
  return ms;
}
