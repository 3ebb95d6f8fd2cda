import type { SkillDescriptor } from "./skill-descriptor.js";

/** One skill directory to expose read-only inside the harness bash. */
export type SkillStagingEntry = {
  readonly name: string;
  /** Relative to the session's working directory: `.agents/skills/<name>/`. */
  readonly mountPath: string;
  readonly mode: "ro";
  /** Host directory holding the skill's SKILL.md (and any files next to it). */
  readonly hostPath: string;
};

/** The staging list for the bash tool: `.agents/skills/<name>/` → host directory, read-only. */
export function skillStaging(skills: readonly SkillDescriptor[]): readonly SkillStagingEntry[] {
  return [...skills]
    .sort((left, right) => (left.name < right.name ? -1 : 1))
    .map((skill) => Object.freeze({ name: skill.name, mountPath: `.agents/skills/${skill.name}/`, mode: "ro" as const, hostPath: skill.directory }));
}
