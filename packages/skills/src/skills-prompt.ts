import type { SkillDescriptor } from "./skill-descriptor.js";

/**
 * The skill list of a harness system prompt (item 3 of the order in seed 003): names and
 * frontmatter descriptions only; bodies are read on demand with bash. Empty string for no skills.
 */
export function skillsPromptBlock(skills: readonly Pick<SkillDescriptor, "name" | "description">[]): string {
  if (skills.length === 0) return "";
  const sorted = [...skills].sort((left, right) => (left.name < right.name ? -1 : 1));
  return [
    "Available skills (read via `cat .agents/skills/<name>/SKILL.md`):",
    ...sorted.map((skill) => `- ${skill.name}: ${skill.description}`),
  ].join("\n");
}
