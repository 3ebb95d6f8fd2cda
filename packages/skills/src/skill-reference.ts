import { isAbsolute, resolve } from "node:path";
import { SkillSourceError } from "./skill-source-error.js";

/** Where a declared skill comes from. */
export type SkillSource =
  | {
      readonly kind: "local";
      /** Absolute host path of a skill directory (with SKILL.md) or of a single `.md` file. */
      readonly path: string;
    }
  | {
      readonly kind: "git";
      /** Repository URL as git understands it (the `git+` prefix removed). */
      readonly url: string;
      /** Full 40-hex commit SHA, lower case. */
      readonly commit: string;
      /** Directory inside the repository holding SKILL.md; `""` for the repository root. */
      readonly subdirectory: string;
    };

/** What `skill(pathOrUrl)` returns: a reference, resolved later (files read, git fetched). */
export type SkillReference = {
  readonly kind: "skill";
  /** The string given to `skill()`. */
  readonly spec: string;
  readonly source: SkillSource;
};

const fullSha = /^[0-9a-f]{40}$/i;
const allowedSchemes = new Set(["https:", "http:", "ssh:", "file:", "git:"]);

function looksLikeUrl(spec: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(spec) || spec.startsWith("git+") || /^[^/\\]+@[^/\\:]+:/.test(spec);
}

function checkSubdirectory(spec: string, subdirectory: string): string {
  const trimmed = subdirectory.replace(/^\/+|\/+$/g, "");
  const bad = subdirectory.startsWith("/") || subdirectory.includes("\0") || subdirectory.includes("\\") ||
    trimmed.split("/").some((segment) => segment === ".." || segment === "." || segment === "" && trimmed !== "" || segment === ".git");
  if (bad) {
    throw new SkillSourceError(
      "skills.invalid_source",
      spec,
      `Skill source ${spec}: subdirectory "${subdirectory}" must be a relative path inside the repository (no "..", ".git", "\\" or leading "/").`,
    );
  }
  return trimmed;
}

function parseGitSource(spec: string): SkillSource {
  const hash = spec.indexOf("#");
  const location = hash === -1 ? spec : spec.slice(0, hash);
  const fragment = hash === -1 ? "" : spec.slice(hash + 1);
  const url = location.startsWith("git+") ? location.slice(4) : location;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SkillSourceError(
      "skills.invalid_source",
      spec,
      `Skill source ${spec} is not a URL git understands; write it as https://host/owner/repo.git#<40-hex commit> or git+<url>#<40-hex commit>.`,
    );
  }
  if (!allowedSchemes.has(parsed.protocol)) {
    throw new SkillSourceError(
      "skills.invalid_source",
      spec,
      `Skill source ${spec} uses the "${parsed.protocol.slice(0, -1)}" transport; only https, http, ssh, git and file repositories are fetched.`,
    );
  }
  const plain = location.startsWith("git+") || parsed.pathname.endsWith(".git");
  if (!plain) {
    throw new SkillSourceError(
      "skills.invalid_source",
      spec,
      `Skill source ${spec} is neither a local path nor a git repository; a git source ends in ".git" or starts with "git+" (https://host/owner/repo.git#<commit>).`,
    );
  }
  const colon = fragment.indexOf(":");
  const revision = colon === -1 ? fragment : fragment.slice(0, colon);
  const subdirectory = colon === -1 ? "" : fragment.slice(colon + 1);
  if (!fullSha.test(revision)) {
    const what = revision === "" ? "is not pinned to a commit" : `is pinned to "${revision}", which is a tag, branch or abbreviated SHA`;
    throw new SkillSourceError(
      "skills.unpinned_git_source",
      spec,
      `Skill source ${spec} ${what}; pin a full 40-character commit SHA (${location}#<40-hex commit>[:subdirectory]) so every run reads the same skill.`,
    );
  }
  return { kind: "git", url, commit: revision.toLowerCase(), subdirectory: checkSubdirectory(spec, subdirectory) };
}

/**
 * Declares a skill. `pathOrUrl` is either a local path (a skill directory holding SKILL.md, or one
 * `.md` file), resolved against `options.baseDir` (default: the process working directory) right
 * away, or a git source pinned to a full commit SHA:
 *
 * - `https://host/owner/repo.git#<40-hex sha>`
 * - `git+https://host/owner/repo#<40-hex sha>` (also `git+ssh://`, `git+file://`, …)
 * - either form + `:<subdirectory>` after the SHA: `…repo.git#<sha>:skills/review`
 *
 * A tag, branch or abbreviated SHA is refused (`skills.unpinned_git_source`). Nothing is read or
 * fetched here; `resolveSkill` does that.
 */
export function skill(pathOrUrl: string, options: { readonly baseDir?: string } = {}): SkillReference {
  if (typeof pathOrUrl !== "string" || pathOrUrl.trim() === "") {
    throw new SkillSourceError("skills.invalid_source", String(pathOrUrl), "skill() needs a local path or a pinned git URL, got an empty value.");
  }
  if (pathOrUrl.includes("\0")) {
    throw new SkillSourceError("skills.invalid_source", pathOrUrl.replaceAll("\0", "\\0"), "Skill source contains a NUL byte.");
  }
  if (looksLikeUrl(pathOrUrl)) {
    if (/^[^/\\]+@[^/\\:]+:/.test(pathOrUrl) && !pathOrUrl.includes("://")) {
      throw new SkillSourceError(
        "skills.invalid_source",
        pathOrUrl,
        `Skill source ${pathOrUrl} uses scp-like syntax; write it as git+ssh://user@host/owner/repo.git#<40-hex commit>.`,
      );
    }
    return Object.freeze({ kind: "skill", spec: pathOrUrl, source: Object.freeze(parseGitSource(pathOrUrl)) });
  }
  const path = isAbsolute(pathOrUrl) ? resolve(pathOrUrl) : resolve(options.baseDir ?? process.cwd(), pathOrUrl);
  return Object.freeze({ kind: "skill", spec: pathOrUrl, source: Object.freeze({ kind: "local", path }) });
}

/** True for values made by `skill()`. */
export function isSkillReference(value: unknown): value is SkillReference {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "skill" &&
    typeof (value as { spec?: unknown }).spec === "string" && typeof (value as { source?: unknown }).source === "object";
}
