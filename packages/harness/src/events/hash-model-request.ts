import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import type { ModelRequest } from "./harness-event-types.js";

/** `promptHash` of `harness.model.called`: the digest of the canonical JSON of the request. */
export function hashModelRequest(request: ModelRequest): Sha256Digest {
  return sha256Digest(request);
}
