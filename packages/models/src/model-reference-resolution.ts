import type { ModelReference } from "./model-registry-entry.js";

/** How a reference reached its registry key. */
export type ModelResolutionRule = "exact" | "provider-alias" | "snapshot" | "provider-alias-and-snapshot";

export type ModelKeyCandidate = {
  readonly key: string;
  readonly rule: ModelResolutionRule;
};

/** `provider/modelId`, lower case: the one key format of the registry. */
export function modelRegistryKey(reference: ModelReference): string {
  return `${reference.provider.trim().toLowerCase()}/${reference.modelId.trim().toLowerCase()}`;
}

/**
 * The keys to try for a reference, most specific first:
 * 1. the reference as given (lower-cased; a leading `models/` on the model id is dropped);
 * 2. the provider family — the part of the provider id before its first `.` — because the AI SDK
 *    reports `openai.chat`, `openai.responses`, `anthropic.messages`, `google.generative-ai`;
 * 3. and 4. the same two with a dated snapshot suffix removed from the model id
 *    (`-2024-07-18` as OpenAI writes it, `-20251001` as Anthropic does).
 * A dated id that has its own entry (e.g. `gpt-4o-2024-05-13`) therefore wins over its base model.
 */
export function modelKeyCandidates(reference: ModelReference): readonly ModelKeyCandidate[] {
  const provider = reference.provider.trim().toLowerCase();
  const modelId = reference.modelId.trim().toLowerCase().replace(/^models\//, "");
  const providerFamily = provider.split(".")[0] ?? provider;
  const baseModelId = withoutSnapshotSuffix(modelId);

  const candidates: ModelKeyCandidate[] = [
    { key: `${provider}/${modelId}`, rule: "exact" },
    { key: `${providerFamily}/${modelId}`, rule: "provider-alias" },
    { key: `${provider}/${baseModelId}`, rule: "snapshot" },
    { key: `${providerFamily}/${baseModelId}`, rule: "provider-alias-and-snapshot" },
  ];
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    if (seen.has(candidate.key)) return false;
    seen.add(candidate.key);
    return true;
  });
}

const snapshotSuffixes = [/-\d{4}-\d{2}-\d{2}$/, /-\d{8}$/];

function withoutSnapshotSuffix(modelId: string): string {
  for (const suffix of snapshotSuffixes) {
    const stripped = modelId.replace(suffix, "");
    // Never strip the whole id: a model named only by a date is not a snapshot of anything.
    if (stripped !== modelId && stripped.length > 0) return stripped;
  }
  return modelId;
}
