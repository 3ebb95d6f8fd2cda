import { LittleWorkflowError } from "@little-stack/canonical";

export type SkillSourceErrorCode =
  | "skills.invalid_source"
  | "skills.unpinned_git_source"
  | "skills.not_found";

/** A `skill(pathOrUrl)` argument is unusable: malformed, not pinned to a commit, or missing. */
export class SkillSourceError extends LittleWorkflowError {
  readonly source: string;

  constructor(code: SkillSourceErrorCode, source: string, message: string) {
    super(code, message, { details: { source } });
    this.source = source;
  }
}
