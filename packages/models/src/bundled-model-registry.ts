import { bundledModelEntries } from "./bundled-model-entries.js";
import { createModelRegistry, type ModelRegistry } from "./model-registry.js";

/** The registry shipped with the package; see README for its sources and dates. */
export const bundledModelRegistry: ModelRegistry = createModelRegistry(bundledModelEntries);
