import type { SkillDescriptor } from "./skill-descriptor.js";
import type { SkillWarning } from "./skill-warning.js";
import { SkillConflictError } from "./skill-conflict-error.js";

/**
 * The union of workflow-declared, org and built-in skills, sorted by name. On a name collision the
 * workflow-declared skill wins and a `skills.org_overridden` warning says which org skill was
 * hidden; a built-in skill is silently replaced by a workflow or org skill of its name (that is
 * how a team swaps in its own reference). Two workflow-declared skills with one name are an
 * error (`SkillConflictError`).
 */
export function mergeSkills(options: {
  readonly workflow: readonly SkillDescriptor[];
  readonly org: readonly SkillDescriptor[];
  readonly builtin?: readonly SkillDescriptor[];
}): { readonly skills: readonly SkillDescriptor[]; readonly warnings: readonly SkillWarning[] } {
  const byName = new Map<string, SkillDescriptor>();
  for (const skill of options.workflow) {
    const earlier = byName.get(skill.name);
    if (earlier !== undefined) throw new SkillConflictError(skill.name, [earlier.source, skill.source]);
    byName.set(skill.name, skill);
  }
  const warnings: SkillWarning[] = [];
  for (const skill of options.org) {
    const declared = byName.get(skill.name);
    if (declared === undefined) {
      byName.set(skill.name, skill);
      continue;
    }
    if (declared.origin === "org") continue;
    warnings.push({
      code: "skills.org_overridden",
      skillName: skill.name,
      path: skill.directory,
      message: `Skill "${skill.name}" declared by the workflow (${declared.source}) overrides the org skill at ${skill.directory}.`,
    });
  }
  for (const skill of options.builtin ?? []) if (!byName.has(skill.name)) byName.set(skill.name, skill);
  const skills = [...byName.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { skills, warnings };
}
