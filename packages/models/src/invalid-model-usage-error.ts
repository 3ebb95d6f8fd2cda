import { ModelsError } from "./models-error.js";

/**
 * Token counts (of one model call or of a usage total) that cannot be priced or summed: negative,
 * fractional, missing, or a subset larger than its whole. `field` is the dotted path of the bad
 * value, e.g. `usage.cachedInputTokens` or `totals[2].costUsd`.
 */
export class InvalidModelUsageError extends ModelsError {
  readonly field: string;

  constructor(options: { readonly field: string; readonly problem: string; readonly value: unknown; readonly fix: string }) {
    super(
      "models.invalid_usage",
      `Invalid ${options.field}: ${options.problem} (got ${describeValue(options.value)}). ${options.fix}`,
      { details: { field: options.field, value: options.value } },
    );
    this.field = options.field;
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value;
}
