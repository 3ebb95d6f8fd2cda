import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * A SKILL.md (or single-file skill) is missing or has missing/invalid frontmatter. `file` is its
 * host path; `from` the `skill()` spec when the file came from a git source.
 */
export class SkillDefinitionError extends LittleWorkflowError {
  readonly file: string;
  readonly problem: string;

  constructor(file: string, problem: string, options: { readonly cause?: unknown; readonly from?: string } = {}) {
    const origin = options.from === undefined ? "" : ` (skill source ${options.from})`;
    super("skills.invalid_skill_file", `${file}${origin}: ${problem}`, {
      details: options.from === undefined ? { file } : { file, from: options.from },
      cause: options.cause,
    });
    this.file = file;
    this.problem = problem;
  }
}
