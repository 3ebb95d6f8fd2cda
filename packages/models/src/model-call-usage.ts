import { InvalidModelUsageError } from "./invalid-model-usage-error.js";

/**
 * Token usage of one model call as the harness records it. `cachedInputTokens` is the part of
 * `inputTokens` served from the prompt cache; `reasoningTokens` is the part of `outputTokens` the
 * model spent thinking. Both default to 0.
 */
export type ModelCallUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
};

/** `ModelCallUsage` with the optional subsets filled in. */
export type NormalizedModelCallUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
};

/** Checks the counts and fills the optional subsets with 0; throws `InvalidModelUsageError`. */
export function normalizeModelCallUsage(usage: unknown, fieldPrefix = "usage"): NormalizedModelCallUsage {
  if (typeof usage !== "object" || usage === null) {
    throw new InvalidModelUsageError({
      field: fieldPrefix,
      problem: "expected an object { inputTokens, outputTokens, cachedInputTokens?, reasoningTokens? }",
      value: usage,
      fix: "Pass the token counts the provider reported for the call.",
    });
  }
  const record = usage as Record<string, unknown>;
  const inputTokens = tokenCount({ record, name: "inputTokens", fieldPrefix, required: true });
  const outputTokens = tokenCount({ record, name: "outputTokens", fieldPrefix, required: true });
  const cachedInputTokens = tokenCount({ record, name: "cachedInputTokens", fieldPrefix, required: false });
  const reasoningTokens = tokenCount({ record, name: "reasoningTokens", fieldPrefix, required: false });
  if (cachedInputTokens > inputTokens) {
    throw new InvalidModelUsageError({
      field: `${fieldPrefix}.cachedInputTokens`,
      problem: `cached input tokens are a subset of inputTokens (${inputTokens}) and cannot exceed it`,
      value: cachedInputTokens,
      fix: "Report inputTokens as the total prompt size, cached tokens included.",
    });
  }
  if (reasoningTokens > outputTokens) {
    throw new InvalidModelUsageError({
      field: `${fieldPrefix}.reasoningTokens`,
      problem: `reasoning tokens are a subset of outputTokens (${outputTokens}) and cannot exceed it`,
      value: reasoningTokens,
      fix: "Report outputTokens as the total output, reasoning tokens included.",
    });
  }
  return { inputTokens, outputTokens, cachedInputTokens, reasoningTokens };
}

/** A count field: a non-negative safe integer; optional ones may be absent (→ 0). */
export function tokenCount(options: {
  readonly record: Readonly<Record<string, unknown>>;
  readonly name: string;
  readonly fieldPrefix: string;
  readonly required: boolean;
}): number {
  const { record, name, fieldPrefix, required } = options;
  const value = record[name];
  if (value === undefined && !required) return 0;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidModelUsageError({
      field: `${fieldPrefix}.${name}`,
      problem: "expected a non-negative integer count",
      value,
      fix: required ? "Every model call must report it; use 0 when there were none." : "Omit it or pass a non-negative integer.",
    });
  }
  return value;
}
