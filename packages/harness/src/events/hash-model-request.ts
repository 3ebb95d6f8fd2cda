import { sha256Hex, type Sha256Digest } from "@little-stack/canonical";
import type { ModelRequest } from "./harness-event-types.js";
import { fastCanonicalJson } from "./fast-canonical-json.js";

/**
 * `promptHash` of `harness.model.called`: `sha256(canonicalJson(request))`, the same value as
 * `sha256Digest(request)`, computed on a fast path because it runs on every turn of every session.
 */
export function hashModelRequest(request: ModelRequest): Sha256Digest {
  return `sha256:${sha256Hex(fastCanonicalJson(request))}`;
}
