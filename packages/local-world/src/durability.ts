import { InvalidWorldOptionsError } from "./world-errors.js";

/**
 * - `strict` (default): SQLite `synchronous=FULL` and fsync of artifact and manifest files. A
 *   committed event survives a process kill, an OS crash and a power loss.
 * - `process`: SQLite `synchronous=NORMAL`, no fsync of files. A committed event survives a
 *   process kill (`kill -9`), not an OS crash or power loss: the last commits may be lost, though
 *   the log stays consistent (no torn or half-written events).
 */
export type Durability = "strict" | "process";

/** The SQLite `synchronous` level each mode requires (PRAGMA synchronous numbers). */
export const synchronousLevel: Record<Durability, { readonly name: string; readonly value: number }> = {
  strict: { name: "FULL", value: 2 },
  process: { name: "NORMAL", value: 1 },
};

export function resolveDurability(value: unknown): Durability {
  if (value === undefined) return "strict";
  if (value === "strict" || value === "process") return value;
  throw new InvalidWorldOptionsError("durability", `must be "strict" or "process", got ${JSON.stringify(value) ?? String(value)}`);
}
