// Public surface of @little-stack/models: an explicit list of named exports.
export { bundledModelEntries } from "./bundled-model-entries.js";
export { InvalidModelRegistryError } from "./invalid-model-registry-error.js";
export { InvalidModelUsageError } from "./invalid-model-usage-error.js";
export type { ModelCallUsage, NormalizedModelCallUsage } from "./model-call-usage.js";
export { modelKeyCandidates, modelRegistryKey, type ModelKeyCandidate, type ModelResolutionRule } from "./model-reference-resolution.js";
export type {
  ModelCapabilities,
  ModelLongContextRates,
  ModelPricing,
  ModelReference,
  ModelRegistryEntry,
  ModelRegistryEntryInput,
  ModelTokenRates,
} from "./model-registry-entry.js";
export { bundledModelRegistry } from "./bundled-model-registry.js";
export {
  createModelRegistry,
  type CreateModelRegistryOptions,
  type ModelRegistry,
  type ModelResolution,
} from "./model-registry.js";
export { ModelsError, type ModelsErrorOptions } from "./models-error.js";
export { priceModelCall, type ModelCall, type PricedModelCall } from "./price-model-call.js";
export { addModelCallToTotals, emptyUsageTotals, sumUsageTotals, type UsageTotals } from "./usage-totals.js";
