import type { Sha256Digest } from "@little-stack/canonical";
import type { SkillSource } from "./skill-reference.js";

/**
 * Where a resolved skill came from: declared by the workflow, found in the org store, or built
 * into the SDK (the planner's `lwir` reference). On a name collision workflow beats org beats builtin.
 */
export type SkillOrigin = "workflow" | "org" | "builtin";

/** A resolved skill: frontmatter read, files on the host, ready to list and stage. */
export type SkillDescriptor = {
  readonly name: string;
  /** Frontmatter description, whitespace collapsed to one line. */
  readonly description: string;
  readonly origin: SkillOrigin;
  /** Host directory staged read-only at `.agents/skills/<name>/` (contains SKILL.md). */
  readonly directory: string;
  /** The string given to `skill()`, or the org skill's directory. */
  readonly source: string;
  /** The parsed source (local path, pinned git commit) or the org directory. */
  readonly location: SkillSource | { readonly kind: "org"; readonly path: string };
  /** `directoryDigest` of `directory`: changes whenever any file of the skill changes. */
  readonly contentHash: Sha256Digest;
};
