import type { Sha256Digest } from "@little-stack/canonical";
import { mergeSkills } from "./merge-skills.js";
import { loadOrgSkills } from "./org-skills.js";
import { resolveSkill, type ResolveSkillOptions } from "./resolve-skill.js";
import type { SkillDescriptor } from "./skill-descriptor.js";
import { isSkillReference, skill, type SkillReference } from "./skill-reference.js";
import { SkillSourceError } from "./skill-source-error.js";
import { skillsHash } from "./skills-hash.js";
import type { SkillLogger, SkillWarning } from "./skill-warning.js";

export type ResolvedSkillSet = {
  /** Sorted by name; workflow-declared skills win over org skills of the same name. */
  readonly skills: readonly SkillDescriptor[];
  readonly warnings: readonly SkillWarning[];
  /** `skillsHash(skills)`. */
  readonly hash: Sha256Digest;
};

/**
 * The skill set of one harness session: resolves the workflow-declared skills (in order; strings
 * are passed through `skill()`), unions them with the org skills under
 * `<dataDir>/memory/org/skills/*` (unless `includeOrg: false`) and the role's built-in skills,
 * and hashes the result. Warnings
 * are returned and, when a logger is given, sent to `logger.warn`.
 */
export async function resolveSkills(
  declared: readonly (SkillReference | string)[],
  options: ResolveSkillOptions & {
    readonly includeOrg?: boolean;
    readonly logger?: SkillLogger;
    /** Skills the SDK ships for this role (lowest precedence: replaced by a workflow or org skill of the same name). */
    readonly builtin?: readonly SkillReference[];
  },
): Promise<ResolvedSkillSet> {
  const workflow: SkillDescriptor[] = [];
  for (const [index, entry] of declared.entries()) {
    if (typeof entry === "string") workflow.push(await resolveSkill(skill(entry), options));
    else if (isSkillReference(entry)) workflow.push(await resolveSkill(entry, options));
    else throw new SkillSourceError("skills.invalid_source", `skills[${index}]`, `skills[${index}] is not a skill() reference or a string.`);
  }
  const org = options.includeOrg === false ? { skills: [], warnings: [] } : await loadOrgSkills(options);
  const builtin: SkillDescriptor[] = [];
  for (const entry of options.builtin ?? []) builtin.push({ ...(await resolveBuiltinOnce(entry, options)), origin: "builtin" });
  const merged = mergeSkills({ workflow, org: org.skills, builtin });
  const warnings = [...org.warnings, ...merged.warnings];
  for (const warning of warnings) options.logger?.warn(warning.message, warning);
  return { skills: merged.skills, warnings, hash: skillsHash(merged.skills) };
}

/**
 * Built-in skills ship inside the SDK's own packages, which do not change under a running process,
 * so each is read and hashed once per process: the planner's `lwir` skill is 13 files, and reading
 * them one by one on every run cost a fixed-plan run of one step ~5 ms of waiting for the file
 * system. A built-in read in place (a skill directory) is shared by every data dir; one that is
 * materialized into the data dir (a single `.md` file, a git commit) names a directory there, so
 * it is kept per data dir. A failed resolution is not kept.
 */
const resolvedBuiltins = new WeakMap<SkillReference, Map<string | typeof everyDataDir, Promise<SkillDescriptor>>>();
const everyDataDir = Symbol("every data dir");

function resolveBuiltinOnce(entry: SkillReference, options: ResolveSkillOptions): Promise<SkillDescriptor> {
  let cache = resolvedBuiltins.get(entry);
  if (cache === undefined) {
    cache = new Map();
    resolvedBuiltins.set(entry, cache);
  }
  const known = cache.get(everyDataDir) ?? cache.get(options.dataDir);
  if (known !== undefined) return known;
  const resolving = resolveSkill(entry, options);
  const kept = cache;
  kept.set(options.dataDir, resolving);
  resolving.then(
    (descriptor) => {
      if (entry.source.kind === "local" && descriptor.directory === entry.source.path) kept.set(everyDataDir, resolving);
    },
    () => kept.delete(options.dataDir),
  );
  return resolving;
}
