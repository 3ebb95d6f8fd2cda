import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import type { SkillDescriptor } from "./skill-descriptor.js";

/**
 * Digest of a resolved skill set for manifests (`skillsHash`): the sorted list of
 * `{ name, description, contentHash }`. Host paths and specs are left out, so the same skills
 * hash the same on every machine; any change to a skill's files changes it.
 */
export function skillsHash(skills: readonly Pick<SkillDescriptor, "name" | "description" | "contentHash">[]): Sha256Digest {
  return sha256Digest(
    [...skills]
      .map((skill) => ({ name: skill.name, description: skill.description, contentHash: skill.contentHash }))
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0)),
  );
}
