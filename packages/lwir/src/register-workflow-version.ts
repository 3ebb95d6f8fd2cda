import { canonicalJson, idFromDigest, sha256DigestOfBytes, type Sha256Digest } from "@little-stack/canonical";
import { copyJson, deepFreeze, type DeepReadonly } from "./deep-freeze.js";

/** The canonicalizer every workflow-version hash is computed with (RFC 8785 JCS). */
export const WORKFLOW_VERSION_CANONICALIZER = "little-workflow-canonical-json@alpha";

/** An LWIR document registered under its content hash (lwir.md §9). */
export type WorkflowVersion<TLwir = unknown> = {
  /** `wfver_` + the first 16 hex of `hash`. */
  readonly id: string;
  /** `sha256:` + hex of the canonical JSON. */
  readonly hash: Sha256Digest;
  readonly canonicalizer: typeof WORKFLOW_VERSION_CANONICALIZER;
  readonly canonicalJson: string;
  /** A deep-frozen copy of the registered document; the caller's object is left as it was. */
  readonly lwir: DeepReadonly<TLwir>;
};

/**
 * Registers an LWIR document: canonical JSON, its sha256, the `wfver_` id, and a frozen copy of
 * the document. Key order and whitespace never change the id. It does not validate — call
 * `assertValidLwir` first. Throws `CanonicalJsonError` (code `canonical.not_json`, with the
 * JSONPath) when the document is not plain JSON.
 */
export function registerWorkflowVersion<TLwir>(lwir: TLwir): WorkflowVersion<TLwir> {
  const text = canonicalJson(lwir);
  const hash = sha256DigestOfBytes(text);
  return Object.freeze({
    id: idFromDigest("wfver", hash),
    hash,
    canonicalizer: WORKFLOW_VERSION_CANONICALIZER,
    canonicalJson: text,
    lwir: deepFreeze(copyJson(lwir)),
  });
}
