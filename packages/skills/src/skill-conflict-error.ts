import { LittleWorkflowError } from "@little-stack/canonical";

/** Two skills declared by the same workflow have the same frontmatter `name`. */
export class SkillConflictError extends LittleWorkflowError {
  readonly skillName: string;

  constructor(skillName: string, sources: readonly string[]) {
    super(
      "skills.duplicate_name",
      `Two skills declared by the workflow are both named "${skillName}" (${sources.join(" and ")}); rename one in its frontmatter or drop one.`,
      { details: { skillName, sources } },
    );
    this.skillName = skillName;
  }
}
