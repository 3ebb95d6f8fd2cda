import { InvalidWorldOptionsError } from "./world-errors.js";

export const defaultMaxConcurrentSteps = 8;
export const defaultDataDir = ".little-workflow";

export function resolveMaxConcurrentSteps(value: unknown): number {
  if (value === undefined) return defaultMaxConcurrentSteps;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidWorldOptionsError("maxConcurrentSteps", `must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function resolveDataDir(value: unknown): string {
  if (value === undefined) return defaultDataDir;
  if (typeof value !== "string" || value.length === 0 || value.includes("\0")) {
    throw new InvalidWorldOptionsError("dataDir", "must be a non-empty path without NUL characters");
  }
  return value;
}
