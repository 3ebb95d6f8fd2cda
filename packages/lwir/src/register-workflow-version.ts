import { canonicalSnapshot, idFromDigest, sha256DigestOfBytes, type CanonicalSnapshot, type Sha256Digest } from "@little-stack/canonical";
import type { DeepReadonly } from "./deep-freeze.js";

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
  /**
   * A deep-frozen copy of the registered document; the caller's object is left as it was. When an
   * equal document (same canonical text) was registered recently, it is that one's copy: same
   * content, its key order.
   */
  readonly lwir: DeepReadonly<TLwir>;
};

/**
 * Registers an LWIR document: canonical JSON, its sha256, the `wfver_` id, and a frozen copy of
 * the document. Key order and whitespace never change the id. It does not validate — call
 * `assertValidLwir` first. Throws `CanonicalJsonError` (code `canonical.not_json`, with the
 * JSONPath) when the document is not plain JSON.
 */
export function registerWorkflowVersion<TLwir>(lwir: TLwir): WorkflowVersion<TLwir> {
  // One canonicalization; the copy is a canonicalSnapshot, so every later hash or event payload
  // that holds `version.lwir` reuses its text — and the same plan registered again (a fixed plan,
  // run after run) gets the same snapshot back, hence the same version object.
  const snapshot = canonicalSnapshot(lwir, { share: true });
  const known = versionsBySnapshot.get(snapshot);
  if (known !== undefined) return known as WorkflowVersion<TLwir>;
  const hash = sha256DigestOfBytes(snapshot.json);
  const version: WorkflowVersion<TLwir> = Object.freeze({
    id: idFromDigest("wfver", hash),
    hash,
    canonicalizer: WORKFLOW_VERSION_CANONICALIZER,
    canonicalJson: snapshot.json,
    lwir: snapshot.value as DeepReadonly<TLwir>,
  });
  versionsBySnapshot.set(snapshot, version);
  return version;
}

const versionsBySnapshot = new WeakMap<CanonicalSnapshot<unknown>, WorkflowVersion<unknown>>();
