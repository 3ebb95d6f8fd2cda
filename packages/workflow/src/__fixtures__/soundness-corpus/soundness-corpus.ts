import type { CorpusEntry } from "./corpus-entry.js";
import { patternEntries } from "./entries/patterns.js";
import { repoFixtureEntries } from "./entries/repo-fixtures.js";
import { skillExampleEntries } from "./entries/skill-examples.js";
import { stepsOnlyEntries } from "./entries/steps-only.js";
import { stepTypeEntries } from "./entries/step-types.js";
import { loadJsonEntries } from "./load-json-entries.js";

/**
 * Every plan of the soundness corpus (README.md in this folder): hand-written entries for each
 * step type, output mode and pattern, plans submitted with only their steps, the lwir skill's
 * valid examples, the repository's LWIR files, plans a model wrote (model-written/*.json) and
 * plans accepted during a model evaluation (model-evaluation/*.json).
 */
export const soundnessCorpus: readonly CorpusEntry[] = [
  ...stepTypeEntries,
  ...patternEntries,
  ...stepsOnlyEntries,
  ...skillExampleEntries,
  ...repoFixtureEntries,
  ...loadJsonEntries("model-written"),
  ...loadJsonEntries("model-evaluation"),
];
