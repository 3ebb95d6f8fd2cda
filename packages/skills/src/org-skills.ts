import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { LittleWorkflowError } from "@little-stack/canonical";
import { readSkillAt } from "./resolve-skill.js";
import type { SkillDescriptor } from "./skill-descriptor.js";
import type { SkillWarning } from "./skill-warning.js";

/** `<dataDir>/memory/org/skills`: one directory per org skill. */
export function orgSkillsRoot(dataDir: string): string {
  return join(dataDir, "memory", "org", "skills");
}

/**
 * Reads every `<dataDir>/memory/org/skills/<dir>/SKILL.md`, directories in name order, hidden
 * ones skipped. A broken org skill is skipped with a warning naming its file rather than failing
 * the session: the org store is shared by every workflow and may be written by sessions with
 * `memory.org: "rw"`. Two org skills with the same name: the first directory (by name) wins.
 */
export async function loadOrgSkills(options: { readonly dataDir: string }): Promise<{
  readonly skills: readonly SkillDescriptor[];
  readonly warnings: readonly SkillWarning[];
}> {
  const dataDir = resolve(options.dataDir);
  const root = orgSkillsRoot(dataDir);
  // Most data dirs have no org skills: a cheap check instead of an ENOENT thrown every session.
  if (!existsSync(root)) return { skills: [], warnings: [] };
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return { skills: [], warnings: [] };
  }
  const skills: SkillDescriptor[] = [];
  const warnings: SkillWarning[] = [];
  const names = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name).sort();
  for (const name of names) {
    const path = join(root, name);
    try {
      const skill = await readSkillAt({ path, dataDir, origin: "org", spec: path, location: { kind: "org", path } });
      const earlier = skills.find((candidate) => candidate.name === skill.name);
      if (earlier !== undefined) {
        warnings.push({
          code: "skills.org_duplicate_name",
          skillName: skill.name,
          path,
          message: `Org skill ${path} is also named "${skill.name}" (like ${earlier.directory}); it is ignored.`,
        });
        continue;
      }
      skills.push(skill);
    } catch (error) {
      if (!LittleWorkflowError.is(error)) throw error;
      warnings.push({ code: "skills.org_skill_invalid", path, message: `Org skill ignored: ${error.message}` });
    }
  }
  return { skills, warnings };
}
