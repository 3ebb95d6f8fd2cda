import { canonicalJson, isSha256Digest, sha256Hex } from "@little-stack/canonical";
import { MemoryLayoutError } from "./memory-layout-error.js";

/**
 * The key of a pipeline store: 64 lowercase hex of sha256 over the canonical JSON of the sorted,
 * de-duplicated `WorkflowDefinitionHash` list of the available workflows. The same composition
 * always gets the same store, whatever the order the workflows were listed in. Plain hex (no
 * `sha256:` prefix) because it is a directory name.
 */
export function pipelineKey(definitionHashes: readonly string[]): string {
  if (!Array.isArray(definitionHashes) || definitionHashes.length === 0) {
    throw new MemoryLayoutError(
      "pipeline definition hashes",
      "expected a non-empty array of WorkflowDefinitionHash values (a pipeline composes at least one workflow)",
    );
  }
  definitionHashes.forEach((hash, index) => {
    if (!isSha256Digest(hash)) {
      throw new MemoryLayoutError(
        `pipeline definition hashes[${index}]`,
        `expected a "sha256:<64 hex>" WorkflowDefinitionHash, got ${JSON.stringify(hash)}`,
      );
    }
  });
  const sorted = [...new Set(definitionHashes)].sort();
  return sha256Hex(canonicalJson(sorted));
}
