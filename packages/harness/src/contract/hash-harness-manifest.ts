import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import type { HarnessManifest } from "./manifests.js";

/** `sha256(canonicalJson(manifest))`, the `manifestHash` of `harness.session.started`. */
export function hashHarnessManifest(manifest: HarnessManifest): Sha256Digest {
  return sha256Digest(manifest);
}
