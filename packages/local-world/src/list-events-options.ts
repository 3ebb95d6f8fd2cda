import { InvalidListEventsOptionsError } from "./event-log-errors.js";
import type { ListEventsOptions } from "./world.js";

/** `listEvents` options with defaults applied and types checked. */
export type ResolvedListEventsOptions = {
  readonly afterSequence: number;
  readonly typePrefix: string | undefined;
};

export function resolveListEventsOptions(options: ListEventsOptions | undefined): ResolvedListEventsOptions {
  const afterSequence = options?.afterSequence ?? 0;
  if (!Number.isSafeInteger(afterSequence) || afterSequence < 0) {
    throw new InvalidListEventsOptionsError("afterSequence", `must be a non-negative integer, got ${String(afterSequence)}`);
  }
  const typePrefix = options?.typePrefix;
  if (typePrefix !== undefined && typeof typePrefix !== "string") {
    throw new InvalidListEventsOptionsError("typePrefix", `must be a string, got ${typeof typePrefix}`);
  }
  return { afterSequence, typePrefix: typePrefix === "" ? undefined : typePrefix };
}
