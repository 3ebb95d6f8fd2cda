// Public surface of @little-stack/skills: an explicit list of named exports.
export { directoryDigest } from "./directory-digest.js";
export { materializeGitCommit, skillsCacheRoot, type GitOptions, type MaterializeResult } from "./git-skill-cache.js";
export { mergeSkills } from "./merge-skills.js";
export { loadOrgSkills, orgSkillsRoot } from "./org-skills.js";
export { resolveSkill, type ResolveSkillOptions } from "./resolve-skill.js";
export { resolveSkills, type ResolvedSkillSet } from "./resolve-skills.js";
export { SkillConflictError } from "./skill-conflict-error.js";
export { SkillDefinitionError } from "./skill-definition-error.js";
export type { SkillDescriptor, SkillOrigin } from "./skill-descriptor.js";
export { SkillFetchError } from "./skill-fetch-error.js";
export { parseSkillFrontmatter, type SkillFrontmatter } from "./skill-frontmatter.js";
export { isSkillReference, skill, type SkillReference, type SkillSource } from "./skill-reference.js";
export { SkillSourceError, type SkillSourceErrorCode } from "./skill-source-error.js";
export { skillStaging, type SkillStagingEntry } from "./skill-staging.js";
export type { SkillLogger, SkillWarning } from "./skill-warning.js";
export { skillsHash } from "./skills-hash.js";
export { skillsPromptBlock } from "./skills-prompt.js";
