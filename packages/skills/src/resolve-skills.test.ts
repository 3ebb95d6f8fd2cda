import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBareRepository } from "./__fixtures__/git-repository.js";
import { resolveSkill } from "./resolve-skill.js";
import { resolveSkills } from "./resolve-skills.js";
import { SkillConflictError } from "./skill-conflict-error.js";
import { SkillDefinitionError } from "./skill-definition-error.js";
import { SkillFetchError } from "./skill-fetch-error.js";
import { skill } from "./skill-reference.js";
import { SkillSourceError } from "./skill-source-error.js";
import { skillStaging } from "./skill-staging.js";
import type { SkillWarning } from "./skill-warning.js";
import { skillsHash } from "./skills-hash.js";
import { skillsPromptBlock } from "./skills-prompt.js";

let root: string;
let dataDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lw-skills-"));
  dataDir = join(root, "data");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function skillMd(name: string, description: string, body = "Body."): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

function writeSkillDir(path: string, content: string, extra: Record<string, string> = {}): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, "SKILL.md"), content);
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(path, file), text);
  return path;
}

describe("local skills", () => {
  it("resolves a skill directory", async () => {
    const dir = writeSkillDir(join(root, "review"), skillMd("review", "Review a diff."), { "checklist.md": "- a" });
    const resolved = await resolveSkill(skill(dir), { dataDir });
    expect(resolved).toMatchObject({ name: "review", description: "Review a diff.", origin: "workflow", directory: dir, source: dir });
    expect(resolved.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("stages a single-file skill as a directory holding only that file", async () => {
    mkdirSync(join(root, "loose"));
    writeFileSync(join(root, "loose/fan-out.md"), skillMd("fan-out", "Parallel tool calls."));
    writeFileSync(join(root, "loose/secret.txt"), "not part of the skill");
    const resolved = await resolveSkill(skill(join(root, "loose/fan-out.md")), { dataDir });
    expect(resolved.name).toBe("fan-out");
    expect(resolved.directory.startsWith(join(dataDir, "skills-cache/files/"))).toBe(true);
    expect(readdirSync(resolved.directory)).toEqual(["SKILL.md"]);
    expect(readFileSync(join(resolved.directory, "SKILL.md"), "utf8")).toBe(skillMd("fan-out", "Parallel tool calls."));
  });

  it("names the file when SKILL.md is missing or its frontmatter is wrong", async () => {
    const empty = join(root, "empty");
    mkdirSync(empty);
    await expect(resolveSkill(skill(empty), { dataDir })).rejects.toThrow(`${join(empty, "SKILL.md")}: is missing`);
    const broken = writeSkillDir(join(root, "broken"), "---\nname: broken\n---\n");
    const error = await resolveSkill(skill(broken), { dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillDefinitionError);
    expect((error as SkillDefinitionError).file).toBe(join(broken, "SKILL.md"));
    expect((error as Error).message).toContain('missing required field "description"');
    await expect(resolveSkill(skill(join(root, "nope")), { dataDir })).rejects.toBeInstanceOf(SkillSourceError);
    writeFileSync(join(root, "notes.txt"), "x");
    await expect(resolveSkill(skill(join(root, "notes.txt")), { dataDir })).rejects.toThrow(/not a \.md file/);
  });
});

describe("git skills", () => {
  it("fetches a pinned commit into skills-cache/<sha> and reuses it without git", async () => {
    const repo = createBareRepository(join(root, "remote"), {
      "skills/review/SKILL.md": skillMd("review", "Review from git."),
      "skills/review/extra.md": "extra",
      "README.md": "repo readme",
    });
    const reference = skill(`git+${repo.url}#${repo.commit}:skills/review`);
    const first = await resolveSkill(reference, { dataDir });
    expect(first.directory).toBe(join(dataDir, "skills-cache", repo.commit, "skills/review"));
    expect(first).toMatchObject({ name: "review", description: "Review from git.", source: reference.spec });
    expect(existsSync(join(dataDir, "skills-cache", repo.commit, ".git"))).toBe(false);
    expect(readdirSync(join(dataDir, "skills-cache")).filter((name) => name.startsWith(".fetch-"))).toEqual([]);

    // Proof the second resolve makes no git call: the repository is gone, and even the git
    // binary is unusable, yet the cached commit resolves to the same skill.
    rmSync(repo.bare, { recursive: true, force: true });
    const second = await resolveSkill(reference, { dataDir, git: { binary: join(root, "no-such-git") } });
    expect(second).toEqual(first);
  });

  it("lets two concurrent resolves of one commit both succeed with one cache entry", async () => {
    const repo = createBareRepository(join(root, "remote"), { "SKILL.md": skillMd("twice", "Fetched twice.") });
    const reference = skill(`git+${repo.url}#${repo.commit}`);
    const [first, second] = await Promise.all([resolveSkill(reference, { dataDir }), resolveSkill(reference, { dataDir })]);
    expect(first).toEqual(second);
    expect(readdirSync(join(dataDir, "skills-cache"))).toEqual([repo.commit]);
  });

  it("accepts the https-style form ending in .git at the repository root", async () => {
    const repo = createBareRepository(join(root, "remote"), { "SKILL.md": skillMd("rooted", "At the root.") });
    const resolved = await resolveSkill(skill(`${repo.url}#${repo.commit}`), { dataDir });
    expect(resolved.directory).toBe(join(dataDir, "skills-cache", repo.commit));
  });

  it("refuses a source pinned to a tag or branch before fetching anything", async () => {
    const repo = createBareRepository(join(root, "remote"), { "SKILL.md": skillMd("tagged", "x") });
    for (const pin of ["v1", "main", repo.commit.slice(0, 12)]) {
      expect(() => skill(`git+${repo.url}#${pin}`)).toThrow(/pin a full 40-character commit SHA/);
    }
    await expect(resolveSkills([`git+${repo.url}#v1`], { dataDir })).rejects.toMatchObject({ code: "skills.unpinned_git_source" });
    expect(existsSync(join(dataDir, "skills-cache"))).toBe(false);
  });

  it("reports a commit that is not in the repository, leaving no cache entry", async () => {
    const repo = createBareRepository(join(root, "remote"), { "SKILL.md": skillMd("x", "x") });
    const missing = "f".repeat(40);
    const error = await resolveSkill(skill(`git+${repo.url}#${missing}`), { dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillFetchError);
    expect((error as Error).message).toContain(`Could not fetch commit ${missing}`);
    expect(readdirSync(join(dataDir, "skills-cache"))).toEqual([]);
  });

  it("names the cached file and the source when a git skill's frontmatter is wrong", async () => {
    const repo = createBareRepository(join(root, "remote"), { "bad/SKILL.md": "---\nname: bad\n---\n" });
    const spec = `git+${repo.url}#${repo.commit}:bad`;
    const error = await resolveSkill(skill(spec), { dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillDefinitionError);
    expect((error as Error).message).toContain(join(dataDir, "skills-cache", repo.commit, "bad/SKILL.md"));
    expect((error as Error).message).toContain(spec);
  });
});

describe("org union, precedence, prompt block, staging, hash", () => {
  function orgSkill(dir: string, content: string): void {
    writeSkillDir(join(dataDir, "memory/org/skills", dir), content);
  }

  it("unions org skills with declared ones; the workflow wins a name collision with a warning", async () => {
    orgSkill("review", skillMd("review", "Org review."));
    orgSkill("style", skillMd("style", "Org style guide."));
    const declared = writeSkillDir(join(root, "mine"), skillMd("review", "Workflow review."));
    const logged: SkillWarning[] = [];
    const set = await resolveSkills([skill(declared)], { dataDir, logger: { warn: (_message, warning) => logged.push(warning) } });
    expect(set.skills.map((entry) => [entry.name, entry.origin, entry.description])).toEqual([
      ["review", "workflow", "Workflow review."],
      ["style", "org", "Org style guide."],
    ]);
    expect(set.warnings).toEqual([
      expect.objectContaining({ code: "skills.org_overridden", skillName: "review", path: join(dataDir, "memory/org/skills/review") }),
    ]);
    expect(logged).toEqual(set.warnings);
    expect(set.hash).toBe(skillsHash(set.skills));
  });

  it("skips broken org skills with a warning naming the file; declared duplicates are an error", async () => {
    orgSkill("broken", "---\nname: broken\n---\n");
    mkdirSync(join(dataDir, "memory/org/skills/.hidden"), { recursive: true });
    const set = await resolveSkills([], { dataDir });
    expect(set.skills).toEqual([]);
    expect(set.warnings).toHaveLength(1);
    expect(set.warnings[0]?.message).toContain(join(dataDir, "memory/org/skills/broken/SKILL.md"));
    const a = writeSkillDir(join(root, "a"), skillMd("same", "A."));
    const b = writeSkillDir(join(root, "b"), skillMd("same", "B."));
    await expect(resolveSkills([skill(a), skill(b)], { dataDir })).rejects.toBeInstanceOf(SkillConflictError);
  });

  it("includeOrg: false ignores the org store", async () => {
    orgSkill("style", skillMd("style", "Org style guide."));
    expect((await resolveSkills([], { dataDir, includeOrg: false })).skills).toEqual([]);
  });

  it("renders the prompt block and the staging list", async () => {
    orgSkill("batch-fan-out", skillMd("batch-fan-out", "Patterns for parallel tool calling when processing many items."));
    const declared = writeSkillDir(join(root, "a"), skillMd("alpha", "First."));
    const set = await resolveSkills([skill(declared)], { dataDir });
    expect(skillsPromptBlock(set.skills)).toBe(
      [
        "Available skills (read via `cat .agents/skills/<name>/SKILL.md`):",
        "- alpha: First.",
        "- batch-fan-out: Patterns for parallel tool calling when processing many items.",
      ].join("\n"),
    );
    expect(skillsPromptBlock([])).toBe("");
    expect(skillStaging(set.skills)).toEqual([
      { name: "alpha", mountPath: ".agents/skills/alpha/", mode: "ro", hostPath: declared },
      { name: "batch-fan-out", mountPath: ".agents/skills/batch-fan-out/", mode: "ro", hostPath: join(dataDir, "memory/org/skills/batch-fan-out") },
    ]);
  });

  it("skillsHash ignores location but follows content, names and descriptions", async () => {
    const one = writeSkillDir(join(root, "one"), skillMd("s", "D."), { "x.md": "1" });
    const two = writeSkillDir(join(root, "elsewhere/two"), skillMd("s", "D."), { "x.md": "1" });
    const first = skillsHash([await resolveSkill(skill(one), { dataDir })]);
    expect(skillsHash([await resolveSkill(skill(two), { dataDir })])).toBe(first);
    writeFileSync(join(two, "x.md"), "2");
    expect(skillsHash([await resolveSkill(skill(two), { dataDir })])).not.toBe(first);
    expect(skillsHash([])).not.toBe(first);
  });
});

describe("built-in skills", () => {
  it("are resolved once per process (the SDK's files do not change under it), and replaced by a workflow skill of the same name", async () => {
    const directory = writeSkillDir(join(root, "builtin", "guide"), skillMd("guide", "Built-in guide."), { "topic.md": "one" });
    const builtin = [skill(directory)];
    const first = await resolveSkills([], { dataDir, includeOrg: false, builtin });
    expect(first.skills.map((entry) => [entry.name, entry.origin])).toEqual([["guide", "builtin"]]);
    writeFileSync(join(directory, "topic.md"), "two");
    const again = await resolveSkills([], { dataDir, includeOrg: false, builtin });
    expect(again.hash).toBe(first.hash);
    // A directory is read in place, so another data dir is given the same resolution.
    const elsewhere = await resolveSkills([], { dataDir: join(root, "other-data"), includeOrg: false, builtin });
    expect(elsewhere.hash).toBe(first.hash);
    expect(elsewhere.skills[0]?.directory).toBe(directory);
    // A reference resolved for the first time reads the directory as it is.
    const fresh = await resolveSkills([], { dataDir, includeOrg: false, builtin: [skill(directory)] });
    expect(fresh.hash).not.toBe(first.hash);
    const workflow = writeSkillDir(join(root, "workflow", "guide"), skillMd("guide", "The workflow's own guide."));
    const replaced = await resolveSkills([skill(workflow)], { dataDir, includeOrg: false, builtin });
    expect(replaced.skills.map((entry) => [entry.description, entry.origin])).toEqual([["The workflow's own guide.", "workflow"]]);
  });

  it("a single-file built-in is materialized into each data dir it is used with", async () => {
    const file = join(root, "builtin-file", "note.md");
    mkdirSync(join(root, "builtin-file"), { recursive: true });
    writeFileSync(file, skillMd("note", "A one-file built-in."));
    const builtin = [skill(file)];
    const first = await resolveSkills([], { dataDir, includeOrg: false, builtin });
    const otherDataDir = join(root, "other-data-file");
    const elsewhere = await resolveSkills([], { dataDir: otherDataDir, includeOrg: false, builtin });
    expect(first.skills[0]?.directory.startsWith(dataDir)).toBe(true);
    expect(elsewhere.skills[0]?.directory.startsWith(otherDataDir)).toBe(true);
    expect(elsewhere.hash).toBe(first.hash);
  });

  it("a built-in that failed to resolve is tried again", async () => {
    const directory = join(root, "builtin", "late");
    const builtin = [skill(directory)];
    await expect(resolveSkills([], { dataDir, includeOrg: false, builtin })).rejects.toThrow();
    writeSkillDir(directory, skillMd("late", "Arrives later."));
    const resolved = await resolveSkills([], { dataDir, includeOrg: false, builtin });
    expect(resolved.skills.map((entry) => entry.name)).toEqual(["late"]);
  });
});

describe("directory digests", () => {
  it("do not depend on how many files a directory has in flight or in which order they finish", async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`f${index}.md`, `content ${index}`]));
    const left = writeSkillDir(join(root, "left", "many"), skillMd("many", "Many files."), files);
    mkdirSync(join(left, "nested", "deeper"), { recursive: true });
    writeFileSync(join(left, "nested", "deeper", "x.md"), "x");
    const right = writeSkillDir(join(root, "right", "many"), skillMd("many", "Many files."), Object.fromEntries(Object.entries(files).reverse()));
    mkdirSync(join(right, "nested", "deeper"), { recursive: true });
    writeFileSync(join(right, "nested", "deeper", "x.md"), "x");
    const [a, b] = await Promise.all([resolveSkill(skill(left), { dataDir }), resolveSkill(skill(right), { dataDir })]);
    expect(a.contentHash).toBe(b.contentHash);
    writeFileSync(join(right, "nested", "deeper", "x.md"), "y");
    expect((await resolveSkill(skill(right), { dataDir })).contentHash).not.toBe(a.contentHash);
  });
});
