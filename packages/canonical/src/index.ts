export { canonicalJson, maxCanonicalJsonDepth } from "./canonical-json.js";
export { canonicalSnapshot, canonicalSnapshotOf, snapshotIfJson, type CanonicalSnapshot, type CanonicalSnapshotOptions } from "./canonical-snapshot.js";
export { CanonicalJsonError } from "./canonical-json-error.js";
export { CanonicalText } from "./canonical-text.js";
export {
  hmacSha256Digest,
  isSha256Digest,
  sha256Digest,
  sha256DigestOfBytes,
  sha256Hex,
  type Sha256Digest,
} from "./digest.js";
export { formatJsonPath, type JsonPathSegment } from "./json-path.js";
export { LittleWorkflowError, type LittleWorkflowErrorOptions } from "./little-workflow-error.js";
export { contentId, idFromDigest, isPrefixedId, randomId } from "./prefixed-id.js";
export { createPrivateSlot, type PrivateSlot } from "./private-slot.js";
