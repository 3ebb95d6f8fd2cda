import { InvalidModelRegistryError } from "./invalid-model-registry-error.js";
import type {
  ModelCapabilities,
  ModelPricing,
  ModelReference,
  ModelRegistryEntry,
  ModelRegistryEntryInput,
  ModelTokenRates,
} from "./model-registry-entry.js";
import { modelKeyCandidates, modelRegistryKey, type ModelResolutionRule } from "./model-reference-resolution.js";
import { ratePicoPerToken } from "./pico-dollars.js";

export type ModelResolution = {
  readonly entry: ModelRegistryEntry;
  /** The registry key that matched, `provider/modelId`. */
  readonly key: string;
  readonly rule: ModelResolutionRule;
};

export type ModelRegistry = {
  /** Every entry, inherited ones included, sorted by key. */
  readonly entries: readonly ModelRegistryEntry[];
  /** The entry for a model as the AI SDK names it, or undefined when the registry does not know it. */
  resolve(reference: ModelReference): ModelResolution | undefined;
};

export type CreateModelRegistryOptions = {
  /**
   * A registry to inherit from (usually `bundledModelRegistry`). An entry here replaces the
   * inherited entry with the same key; resolution then runs over the merged set.
   */
  readonly extends?: ModelRegistry;
};

/** Builds a registry from your own entries, validated up front (`InvalidModelRegistryError`). */
export function createModelRegistry(
  entries: readonly ModelRegistryEntryInput[],
  options: CreateModelRegistryOptions = {},
): ModelRegistry {
  if (!Array.isArray(entries)) {
    throw new InvalidModelRegistryError({
      key: "(entries)",
      field: "entries",
      problem: "is not an array",
      fix: "Pass an array of { provider, modelId, pricing?, ... } entries.",
    });
  }
  const byKey = new Map<string, ModelRegistryEntry>();
  for (const inherited of options.extends?.entries ?? []) {
    byKey.set(modelRegistryKey(inherited), inherited);
  }
  const ownKeys = new Set<string>();
  entries.forEach((input, index) => {
    const entry = normalizeEntry(input, index);
    const key = modelRegistryKey(entry);
    if (ownKeys.has(key)) {
      throw new InvalidModelRegistryError({
        key,
        field: "provider/modelId",
        problem: "appears twice in the same registry",
        fix: "Keep one entry per key; to change an inherited entry, list it once with `extends`.",
      });
    }
    ownKeys.add(key);
    byKey.set(key, entry);
  });
  const sortedEntries = Object.freeze(
    [...byKey.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([, entry]) => entry),
  );

  return Object.freeze({
    entries: sortedEntries,
    resolve(reference: ModelReference): ModelResolution | undefined {
      if (typeof reference?.provider !== "string" || typeof reference.modelId !== "string") return undefined;
      for (const candidate of modelKeyCandidates(reference)) {
        const entry = byKey.get(candidate.key);
        if (entry !== undefined) return { entry, key: candidate.key, rule: candidate.rule };
      }
      return undefined;
    },
  });
}

function normalizeEntry(input: ModelRegistryEntryInput, index: number): ModelRegistryEntry {
  const where = `#${index}`;
  if (typeof input !== "object" || input === null) {
    throw new InvalidModelRegistryError({
      key: where,
      field: "entry",
      problem: "is not an object",
      fix: "Each entry is { provider, modelId, pricing?, ... }.",
    });
  }
  const provider = requireName(input.provider, { where, field: "provider" });
  if (provider.includes("/")) {
    throw new InvalidModelRegistryError({
      key: where,
      field: "provider",
      problem: `"${provider}" contains "/"`,
      fix: "Use the bare provider id, e.g. \"openai\".",
    });
  }
  const modelId = requireName(input.modelId, { where, field: "modelId" });
  const key = modelRegistryKey({ provider, modelId });

  const entry: ModelRegistryEntry = {
    provider,
    modelId,
    ...(input.displayName === undefined ? {} : { displayName: String(input.displayName) }),
    ...(input.pricing === undefined ? {} : { pricing: normalizePricing(input.pricing, key) }),
    ...(input.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: requirePositiveInteger(input.contextWindowTokens, { key, field: "contextWindowTokens" }) }),
    ...(input.maxOutputTokens === undefined
      ? {}
      : { maxOutputTokens: requirePositiveInteger(input.maxOutputTokens, { key, field: "maxOutputTokens" }) }),
    capabilities: normalizeCapabilities(input.capabilities, key),
    source: input.source === undefined ? "user-supplied" : requireName(input.source, { where: key, field: "source" }),
    ...(input.checkedAt === undefined ? {} : { checkedAt: requireDate(input.checkedAt, key) }),
    ...(input.notes === undefined ? {} : { notes: String(input.notes) }),
  };
  return Object.freeze(entry);
}

function normalizePricing(pricing: ModelPricing, key: string): ModelPricing {
  if (typeof pricing !== "object" || pricing === null) {
    throw new InvalidModelRegistryError({
      key,
      field: "pricing",
      problem: "is not an object",
      fix: "Give { inputPerMillionUsd, outputPerMillionUsd, cachedInputPerMillionUsd? } or omit pricing.",
    });
  }
  const base = normalizeRates(pricing, { key, field: "pricing" });
  if (pricing.longContext === undefined) return Object.freeze(base);
  const longContext = pricing.longContext;
  if (typeof longContext !== "object" || longContext === null) {
    throw new InvalidModelRegistryError({
      key,
      field: "pricing.longContext",
      problem: "is not an object",
      fix: "Give { aboveInputTokens, inputPerMillionUsd, outputPerMillionUsd, ... }.",
    });
  }
  const aboveInputTokens = requirePositiveInteger(longContext.aboveInputTokens, { key, field: "pricing.longContext.aboveInputTokens" });
  const longRates = normalizeRates(longContext, { key, field: "pricing.longContext" });
  return Object.freeze({ ...base, longContext: Object.freeze({ aboveInputTokens, ...longRates }) });
}

function normalizeRates(rates: ModelTokenRates, where: { readonly key: string; readonly field: string }): ModelTokenRates {
  const inputPerMillionUsd = requireRate(rates.inputPerMillionUsd, { ...where, field: `${where.field}.inputPerMillionUsd` });
  const outputPerMillionUsd = requireRate(rates.outputPerMillionUsd, { ...where, field: `${where.field}.outputPerMillionUsd` });
  if (rates.cachedInputPerMillionUsd === undefined) return { inputPerMillionUsd, outputPerMillionUsd };
  const cachedField = `${where.field}.cachedInputPerMillionUsd`;
  const cachedInputPerMillionUsd = requireRate(rates.cachedInputPerMillionUsd, { ...where, field: cachedField });
  if (cachedInputPerMillionUsd > inputPerMillionUsd) {
    throw new InvalidModelRegistryError({
      key: where.key,
      field: cachedField,
      problem: `(${cachedInputPerMillionUsd}) is higher than the input rate (${inputPerMillionUsd})`,
      fix: "A cache read is a discount on input; check the two figures are not swapped.",
    });
  }
  return { inputPerMillionUsd, cachedInputPerMillionUsd, outputPerMillionUsd };
}

function requireRate(value: unknown, where: { readonly key: string; readonly field: string }): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidModelRegistryError({
      key: where.key,
      field: where.field,
      problem: `must be a finite number >= 0 (got ${String(value)})`,
      fix: "Give USD per 1,000,000 tokens, e.g. 0.15.",
    });
  }
  if (ratePicoPerToken(value) === undefined) {
    throw new InvalidModelRegistryError({
      key: where.key,
      field: where.field,
      problem: `has more than 6 decimal places (got ${value})`,
      fix: "Rates are USD per 1,000,000 tokens; round to 6 decimals (a millionth of a dollar per million tokens).",
    });
  }
  return value;
}

function requirePositiveInteger(value: unknown, where: { readonly key: string; readonly field: string }): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidModelRegistryError({
      key: where.key,
      field: where.field,
      problem: `must be a positive integer token count (got ${String(value)})`,
      fix: "Give a whole number of tokens, or omit the field.",
    });
  }
  return value;
}

function requireName(value: unknown, where: { readonly where: string; readonly field: string }): string {
  if (typeof value !== "string" || value.trim() === "" || value.trim() !== value) {
    throw new InvalidModelRegistryError({
      key: where.where,
      field: where.field,
      problem: `must be a non-empty string without surrounding spaces (got ${JSON.stringify(value)})`,
      fix: "Use the id exactly as the provider spells it.",
    });
  }
  return value;
}

function requireDate(value: unknown, key: string): string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new InvalidModelRegistryError({
      key,
      field: "checkedAt",
      problem: `must be a date YYYY-MM-DD (got ${JSON.stringify(value)})`,
      fix: "Record the day you checked the price against its source.",
    });
  }
  return value;
}

const capabilityNames = ["tools", "structuredOutput", "reasoning", "vision"] as const;

function normalizeCapabilities(capabilities: Partial<ModelCapabilities> | undefined, key: string): ModelCapabilities {
  if (capabilities === undefined) return Object.freeze({ tools: false, structuredOutput: false, reasoning: false, vision: false });
  if (typeof capabilities !== "object" || capabilities === null) {
    throw new InvalidModelRegistryError({
      key,
      field: "capabilities",
      problem: "is not an object",
      fix: "Give { tools?, structuredOutput?, reasoning?, vision? } booleans.",
    });
  }
  const normalized: Record<(typeof capabilityNames)[number], boolean> = { tools: false, structuredOutput: false, reasoning: false, vision: false };
  for (const name of capabilityNames) {
    const value = capabilities[name];
    if (value === undefined) continue;
    if (typeof value !== "boolean") {
      throw new InvalidModelRegistryError({
        key,
        field: `capabilities.${name}`,
        problem: `must be a boolean (got ${JSON.stringify(value)})`,
        fix: "Use true or false, or omit it (false).",
      });
    }
    normalized[name] = value;
  }
  return Object.freeze(normalized);
}
