import { LittleWorkflowError } from "@little-stack/canonical";

/** `git` could not materialize a pinned skill source (network, missing commit, no git binary). */
export class SkillFetchError extends LittleWorkflowError {
  constructor(message: string, options: { readonly cause?: unknown; readonly details?: Record<string, unknown> } = {}) {
    super("skills.fetch_failed", message, options);
  }
}
