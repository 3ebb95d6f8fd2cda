import { InvalidModelRegistryError } from "./invalid-model-registry-error.js";
import { InvalidModelUsageError } from "./invalid-model-usage-error.js";
import { normalizeModelCallUsage, type ModelCallUsage, type NormalizedModelCallUsage } from "./model-call-usage.js";
import type { ModelRegistryEntry, ModelTokenRates } from "./model-registry-entry.js";
import { bundledModelRegistry } from "./bundled-model-registry.js";
import type { ModelRegistry } from "./model-registry.js";
import type { ModelResolutionRule } from "./model-reference-resolution.js";
import { picoToDollars, ratePicoPerToken } from "./pico-dollars.js";

export type ModelCall = {
  /** The provider id as the AI SDK reports it (`openai.responses`, `anthropic.messages`, ...). */
  readonly provider: string;
  readonly modelId: string;
  readonly usage: ModelCallUsage;
};

/**
 * A model call with its price. `costUsd` is `null` — never 0 — when the registry has no price for
 * the model; 0 only when the call really cost nothing (no tokens, or a model priced at $0).
 */
export type PricedModelCall = {
  readonly provider: string;
  readonly modelId: string;
  readonly usage: NormalizedModelCallUsage;
  readonly costUsd: number | null;
  readonly priced: boolean;
  /** The registry entry used (present also when it has no pricing). */
  readonly entry?: ModelRegistryEntry;
  /** How the reference reached the entry's key. */
  readonly resolvedBy?: ModelResolutionRule;
  /** Which band priced the call when the entry has a long-context band. */
  readonly band?: "standard" | "long-context";
};

/**
 * Prices one call: uncached input at the input rate, cached input (a subset of input) at the
 * cached rate (the input rate when the model has none), output — reasoning included — at the
 * output rate. Throws `InvalidModelUsageError` for counts that are not non-negative integers or
 * subsets larger than their whole.
 */
export function priceModelCall(call: ModelCall, registry: ModelRegistry = bundledModelRegistry): PricedModelCall {
  if (typeof call !== "object" || call === null) {
    throw new InvalidModelUsageError({
      field: "call",
      problem: "expected { provider, modelId, usage }",
      value: call,
      fix: "Pass the model reference and usage the harness recorded.",
    });
  }
  const provider = requireReferencePart(call.provider, "provider");
  const modelId = requireReferencePart(call.modelId, "modelId");
  const usage = normalizeModelCallUsage(call.usage);

  const resolution = registry.resolve({ provider, modelId });
  const pricing = resolution?.entry.pricing;
  if (resolution === undefined || pricing === undefined) {
    return {
      provider,
      modelId,
      usage,
      costUsd: null,
      priced: false,
      ...(resolution === undefined ? {} : { entry: resolution.entry, resolvedBy: resolution.rule }),
    };
  }

  const longContext = pricing.longContext;
  const useLongContext = longContext !== undefined && usage.inputTokens > longContext.aboveInputTokens;
  const rates: ModelTokenRates = useLongContext ? longContext : pricing;
  const costPico = callCostPico({ usage, rates, key: resolution.key });
  return {
    provider,
    modelId,
    usage,
    costUsd: picoToDollars(costPico),
    priced: true,
    entry: resolution.entry,
    resolvedBy: resolution.rule,
    ...(longContext === undefined ? {} : { band: useLongContext ? "long-context" : "standard" }),
  };
}

function callCostPico(options: {
  readonly usage: NormalizedModelCallUsage;
  readonly rates: ModelTokenRates;
  readonly key: string;
}): bigint {
  const { usage, rates, key } = options;
  const rate = (field: keyof ModelTokenRates): bigint => {
    const perMillion = rates[field];
    const perToken = perMillion === undefined ? undefined : ratePicoPerToken(perMillion);
    // createModelRegistry validates rates; this guards registries built by hand.
    if (perToken === undefined) {
      throw new InvalidModelRegistryError({
        key,
        field: `pricing.${field}`,
        problem: `is not a rate with at most 6 decimals (got ${String(perMillion)})`,
        fix: "Build registries with createModelRegistry, which checks every rate.",
      });
    }
    return perToken;
  };
  const inputRate = rate("inputPerMillionUsd");
  const cachedRate = rates.cachedInputPerMillionUsd === undefined ? inputRate : rate("cachedInputPerMillionUsd");
  const outputRate = rate("outputPerMillionUsd");
  const uncachedInput = BigInt(usage.inputTokens - usage.cachedInputTokens);
  return uncachedInput * inputRate + BigInt(usage.cachedInputTokens) * cachedRate + BigInt(usage.outputTokens) * outputRate;
}

function requireReferencePart(value: unknown, field: "provider" | "modelId"): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidModelUsageError({
      field,
      problem: "expected a non-empty string",
      value,
      fix: field === "provider" ? "Pass the AI SDK model's `provider`, e.g. \"openai.responses\"." : "Pass the AI SDK model's `modelId`, e.g. \"gpt-4o-mini\".",
    });
  }
  return value;
}
