import { validateLwir, type LwirDocument, type ValidationResult } from "@little-stack/lwir";

/**
 * Hashes of LWIR documents this process has validated and found valid. A version's hash is
 * recomputed from its LWIR on every run (`verifyWorkflowVersion`), so the hash names the content
 * and validating it again would give the same answer: a service that runs one version many times
 * pays for validation once. Bounded, oldest forgotten first.
 */
const validHashes = new Set<string>();
const rememberedVersions = 256;

/** `validateLwir`, skipped for a document whose verified hash was already found valid here. */
export function validateVersionOnce(lwir: LwirDocument, verifiedHash: string): ValidationResult {
  if (validHashes.has(verifiedHash)) return { valid: true, findings: [] };
  const result = validateLwir(lwir);
  if (result.valid) {
    if (validHashes.size >= rememberedVersions) validHashes.delete(validHashes.values().next().value as string);
    validHashes.add(verifiedHash);
  }
  return result;
}
