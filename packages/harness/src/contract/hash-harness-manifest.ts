import { canonicalSnapshotOf, sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import type { HarnessManifest } from "./manifests.js";

/**
 * Hashes of deeply frozen manifests: a frozen manifest cannot change, so opening its session
 * and validating the `session.started` that carries it hash it once between them (a step of a
 * long run used to hash its manifest twice).
 */
const frozenManifestHashes = new WeakMap<object, Sha256Digest>();

/** `sha256(canonicalJson(manifest))`, the `manifestHash` of `harness.session.started`. */
export function hashHarnessManifest(manifest: HarnessManifest): Sha256Digest {
  // A canonicalSnapshot copy (the runtime's per-step manifests) carries its text and keeps its
  // digest: no walk to prove it frozen, no entry in the map.
  if (canonicalSnapshotOf(manifest) !== undefined) return sha256Digest(manifest);
  const known = frozenManifestHashes.get(manifest);
  if (known !== undefined) return known;
  const hash = sha256Digest(manifest);
  if (isDeepFrozen(manifest)) frozenManifestHashes.set(manifest, hash);
  return hash;
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const child of Object.values(value)) if (!isDeepFrozen(child)) return false;
  return true;
}
