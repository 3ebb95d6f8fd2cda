import { idFromDigest, sha256Digest } from "@little-stack/canonical";
import type { LwirDocument } from "@little-stack/lwir";
import { WorkflowVersionIntegrityError } from "../errors/run-integrity-errors.js";

/**
 * A locked workflow version, as `registerWorkflowVersion(lwir)` returns it (or a compiler lock):
 * `id` = `wfver_` + 16 hex of `hash`, `hash` = sha256 of the LWIR's canonical JSON.
 */
export type WorkflowVersionLike = {
  readonly id: string;
  readonly hash?: string;
  readonly lwir: LwirDocument;
  /** The WorkflowDefinitionHash this version was compiled from (default: the version hash). */
  readonly workflowDefinitionHash?: string;
  /**
   * The payload of the `WorkflowVersionRegistered` event a compiler wrote for this version in the
   * run's log (`compileWorkflow` sets it). The run folds that stored event from this object, not
   * from a parse of its text, once the event's id proves the text is this payload's canonical JSON
   * and the payload names this version's id, hash and LWIR object; otherwise it is ignored.
   */
  readonly registration?: unknown;
};

/** Recomputes the id from the LWIR: a version whose LWIR was changed after locking is refused. */
export function verifyWorkflowVersion(version: WorkflowVersionLike): { readonly id: string; readonly hash: string } {
  const hash = sha256Digest(version.lwir);
  const id = idFromDigest("wfver", hash);
  if (version.id !== id || (version.hash !== undefined && version.hash !== hash)) {
    throw new WorkflowVersionIntegrityError({ givenId: version.id, computedId: id });
  }
  return { id, hash };
}
