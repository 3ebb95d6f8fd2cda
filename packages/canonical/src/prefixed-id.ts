import { randomBytes } from "node:crypto";
import { LittleWorkflowError } from "./little-workflow-error.js";
import { sha256Digest, type Sha256Digest } from "./digest.js";

/**
 * Prefixed ids: `<prefix>_<16 lowercase hex>` (`wfver_…`, `evt_…`, `art_…`, `run_…`). Derived ids
 * take the first 16 hex of a digest, so the same content always gets the same id.
 */
const prefixPattern = /^[a-z][a-z0-9]*$/;

function checkPrefix(prefix: string): void {
  if (!prefixPattern.test(prefix)) {
    throw new LittleWorkflowError(
      "canonical.invalid_id_prefix",
      `Id prefix "${prefix}" must be lowercase letters and digits, starting with a letter.`,
    );
  }
}

/** `<prefix>_` + the first 16 hex of an existing `sha256:` digest. */
export function idFromDigest(prefix: string, digest: Sha256Digest): string {
  checkPrefix(prefix);
  return `${prefix}_${digest.slice("sha256:".length, "sha256:".length + 16)}`;
}

/** `<prefix>_` + the first 16 hex of the digest of the canonical JSON of `value`. */
export function contentId(prefix: string, value: unknown): string {
  return idFromDigest(prefix, sha256Digest(value));
}

/** `<prefix>_` + 16 random hex, for ids that name an occurrence rather than content (runs). */
export function randomId(prefix: string): string {
  checkPrefix(prefix);
  return `${prefix}_${randomBytes(8).toString("hex")}`;
}

/** True when `value` is `<prefix>_<16 hex>` (for the given prefix, if one is given). */
export function isPrefixedId(value: unknown, prefix?: string): value is string {
  if (typeof value !== "string") return false;
  const match = /^([a-z][a-z0-9]*)_([0-9a-f]{16})$/.exec(value);
  return match !== null && (prefix === undefined || match[1] === prefix);
}
