import { canonicalJson, sha256Hex, type Sha256Digest } from "@little-stack/canonical";
import type { ModelRequest } from "./harness-event-types.js";

/**
 * `promptHash` of `harness.model.called`: `sha256(canonicalJson(request))`, the same value as
 * `sha256Digest(request)`; it runs on every turn of every session, which canonicalJson's fast path
 * for plain JSON keeps cheap.
 */
export function hashModelRequest(request: ModelRequest): Sha256Digest {
  return `sha256:${sha256Hex(canonicalJson(request))}`;
}
