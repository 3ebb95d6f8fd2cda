import { mkdir, mkdtemp, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join, resolve, sep } from "node:path";
import { sha256Hex } from "@little-stack/canonical";
import { directoryDigest } from "./directory-digest.js";
import { materializeGitCommit, skillsCacheRoot, type GitOptions } from "./git-skill-cache.js";
import { SkillDefinitionError } from "./skill-definition-error.js";
import type { SkillDescriptor, SkillOrigin } from "./skill-descriptor.js";
import { parseSkillFrontmatter } from "./skill-frontmatter.js";
import type { SkillReference, SkillSource } from "./skill-reference.js";
import { SkillSourceError } from "./skill-source-error.js";

export type ResolveSkillOptions = {
  /** The Local World data dir: git sources and single-file skills are cached under `skills-cache/`. */
  readonly dataDir: string;
  readonly git?: GitOptions;
};

async function kindOf(path: string): Promise<"file" | "directory" | "missing" | "other"> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

/**
 * A single-file skill is staged as a directory holding only that file as SKILL.md, so nothing
 * else next to it leaks into the session. The directory is content-addressed:
 * `<dataDir>/skills-cache/files/<sha256 of the bytes>/SKILL.md`, written atomically.
 */
async function materializeSingleFile(dataDir: string, bytes: Buffer): Promise<string> {
  const root = join(skillsCacheRoot(dataDir), "files");
  const directory = join(root, sha256Hex(bytes));
  if ((await kindOf(join(directory, "SKILL.md"))) === "file") return directory;
  await mkdir(root, { recursive: true });
  const work = await mkdtemp(join(root, ".write-"));
  try {
    await writeFile(join(work, "SKILL.md"), bytes);
    await rename(work, directory);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    if ((await kindOf(join(directory, "SKILL.md"))) !== "file") throw error;
  }
  return directory;
}

/**
 * Reads a skill from a host path (directory with SKILL.md, or one `.md` file). Shared by declared
 * skills, git checkouts and org skills.
 */
export async function readSkillAt(options: {
  readonly path: string;
  readonly dataDir: string;
  readonly origin: SkillOrigin;
  readonly spec: string;
  readonly location: SkillDescriptor["location"];
  /** Set for git sources so errors name the spec as well as the cached file. */
  readonly from?: string;
}): Promise<SkillDescriptor> {
  const kind = await kindOf(options.path);
  let directory: string;
  let file: string;
  let text: Buffer;
  if (kind === "directory") {
    directory = options.path;
    file = join(options.path, "SKILL.md");
    if ((await kindOf(file)) !== "file") {
      throw new SkillDefinitionError(file, "is missing; a skill directory needs a SKILL.md whose frontmatter has name and description.", { from: options.from });
    }
    text = await readFile(file);
  } else if (kind === "file") {
    file = options.path;
    if (!basename(file).toLowerCase().endsWith(".md")) {
      throw new SkillSourceError(
        "skills.invalid_source",
        options.spec,
        `Skill source ${options.spec} is a file but not a .md file; point skill() at a skill directory or a single .md file.`,
      );
    }
    text = await readFile(file);
    directory = "";
  } else {
    throw new SkillSourceError(
      "skills.not_found",
      options.spec,
      `Skill source ${options.spec}: ${options.path} ${kind === "missing" ? "does not exist" : "is neither a file nor a directory"}.`,
    );
  }
  let frontmatter;
  try {
    frontmatter = parseSkillFrontmatter(file, text.toString("utf8"));
  } catch (error) {
    if (error instanceof SkillDefinitionError && options.from !== undefined) {
      throw new SkillDefinitionError(file, error.problem, { from: options.from, cause: error.cause });
    }
    throw error;
  }
  if (kind === "file") directory = await materializeSingleFile(options.dataDir, text);
  return Object.freeze({
    name: frontmatter.name,
    description: frontmatter.description,
    origin: options.origin,
    directory,
    source: options.spec,
    location: options.location,
    contentHash: await directoryDigest(directory),
  });
}

async function hostPathOf(source: SkillSource, options: ResolveSkillOptions): Promise<string> {
  if (source.kind === "local") return source.path;
  const { directory } = await materializeGitCommit({ dataDir: options.dataDir, url: source.url, commit: source.commit, git: options.git });
  if (source.subdirectory === "") return directory;
  const path = join(directory, ...source.subdirectory.split("/"));
  // A symlinked subdirectory in someone else's repository must not point the skill at host files.
  const [realRoot, realPath] = await Promise.all([realpath(directory), realpath(path).catch(() => path)]);
  if (realPath !== realRoot && !realPath.startsWith(`${realRoot}${sep}`)) {
    throw new SkillSourceError("skills.invalid_source", `${source.url}#${source.commit}:${source.subdirectory}`, `Skill subdirectory "${source.subdirectory}" resolves outside the repository checkout (a symlink); point at a real directory inside it.`);
  }
  return path;
}

/**
 * Resolves a workflow-declared skill: reads the local SKILL.md / .md file, or materializes the
 * pinned git commit into `<dataDir>/skills-cache/<sha>/` first (no git call when cached).
 * Throws `SkillSourceError`, `SkillDefinitionError` (naming the file) or `SkillFetchError`.
 */
export async function resolveSkill(reference: SkillReference, options: ResolveSkillOptions): Promise<SkillDescriptor> {
  const dataDir = resolve(options.dataDir);
  const path = await hostPathOf(reference.source, { ...options, dataDir });
  return readSkillAt({
    path,
    dataDir,
    origin: "workflow",
    spec: reference.spec,
    location: reference.source,
    ...(reference.source.kind === "git" ? { from: reference.spec } : {}),
  });
}
