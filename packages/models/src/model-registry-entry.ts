/** Rates of one pricing band, in US dollars per 1,000,000 tokens. */
export type ModelTokenRates = {
  readonly inputPerMillionUsd: number;
  /**
   * Rate for input tokens served from the provider's prompt cache (cache reads). When absent the
   * provider gives no cache discount and cached tokens are billed at `inputPerMillionUsd`.
   */
  readonly cachedInputPerMillionUsd?: number;
  /** Also the rate of reasoning tokens, which providers bill as output. */
  readonly outputPerMillionUsd: number;
};

/**
 * A higher band some providers apply to a whole call once its prompt is long (Gemini 2.5 Pro above
 * 200,000 input tokens, Claude Haiku 5.5 above 100,000). The band applies to every token of the
 * call, output included, when `inputTokens` (cached tokens included) exceeds `aboveInputTokens`.
 */
export type ModelLongContextRates = ModelTokenRates & {
  readonly aboveInputTokens: number;
};

export type ModelPricing = ModelTokenRates & {
  readonly longContext?: ModelLongContextRates;
};

/** What the model can do, as far as a planner choosing among model slots cares. */
export type ModelCapabilities = {
  readonly tools: boolean;
  readonly structuredOutput: boolean;
  readonly reasoning: boolean;
  readonly vision: boolean;
};

/** One model as the registry knows it. Keyed by `provider/modelId`, both lower case. */
export type ModelRegistryEntry = {
  /** Canonical provider id: `openai`, `anthropic`, `google`, or your own. No `/`. */
  readonly provider: string;
  /** The provider's model id without a dated snapshot suffix, e.g. `gpt-4o-mini`. */
  readonly modelId: string;
  readonly displayName?: string;
  /** Absent: the model is known (limits, capabilities) but its price is not; calls are unpriced. */
  readonly pricing?: ModelPricing;
  readonly contextWindowTokens?: number;
  readonly maxOutputTokens?: number;
  readonly capabilities: ModelCapabilities;
  /** Where the figures came from (a URL or a short description for your own entries). */
  readonly source: string;
  /** The date the figures were last checked against `source`, `YYYY-MM-DD`. */
  readonly checkedAt?: string;
  readonly notes?: string;
};

/** What `createModelRegistry` accepts: capabilities default to all `false`, source to "user-supplied". */
export type ModelRegistryEntryInput = Omit<ModelRegistryEntry, "capabilities" | "source"> & {
  readonly capabilities?: Partial<ModelCapabilities>;
  readonly source?: string;
};

/** A model as a call or an event names it: the AI SDK's `provider` and `modelId` strings. */
export type ModelReference = {
  readonly provider: string;
  readonly modelId: string;
};
