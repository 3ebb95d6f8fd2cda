import { CanonicalJsonError, canonicalJson } from "@little-stack/canonical";
import { InvalidOuterLoopManifestError } from "./outer-loop-manifest-errors.js";

/** Canonical JSON text of an outer-loop manifest, which must be a plain JSON object. */
export function serializeOuterLoopManifest(outerLoopId: string, manifest: unknown): string {
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new InvalidOuterLoopManifestError(outerLoopId, "expected a plain JSON object");
  }
  try {
    return canonicalJson(manifest);
  } catch (error) {
    if (error instanceof CanonicalJsonError) {
      throw new InvalidOuterLoopManifestError(outerLoopId, `the value at ${error.path} is not plain JSON`, error);
    }
    throw error;
  }
}
