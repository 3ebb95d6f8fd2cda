import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SkillDefinitionError } from "./skill-definition-error.js";
import { parseSkillFrontmatter } from "./skill-frontmatter.js";

const file = "/skills/review/SKILL.md";
const run = promisify(execFile);

function problem(text: string): SkillDefinitionError {
  try {
    parseSkillFrontmatter(file, text);
  } catch (error) {
    if (error instanceof SkillDefinitionError) return error;
    throw error;
  }
  throw new Error("expected a SkillDefinitionError");
}

describe("parseSkillFrontmatter", () => {
  it("reads name and description, folding the description to one line", () => {
    expect(parseSkillFrontmatter(file, "---\nname: review\ndescription: >\n  Review code\n  carefully.\n---\n# Body")).toEqual({
      name: "review",
      description: "Review code carefully.",
    });
  });

  it("names the file for every kind of frontmatter error", () => {
    const cases: [string, string][] = [
      ["# no frontmatter", "has no YAML frontmatter"],
      ["---\ndescription: x\n---\n", 'missing required field "name"'],
      ["---\nname: x\n---\n", 'missing required field "description"'],
      ["---\ntitle: x\n---\n", 'missing required fields "name" and "description"'],
      ["---\nname: Bad Name\ndescription: x\n---\n", 'frontmatter "name" must be lower-case'],
      ["---\nname: x\ndescription: [1, 2]\n---\n", '"description" must be a non-empty string'],
      ["---\nname: [\n---\n", "not valid YAML"],
      ["---\n- a\n- b\n---\n", "YAML mapping"],
      ["---\nname: x\ndescription: never closed\n# Body", "frontmatter is not closed"],
      ["---coffee\nname: x\n---\n", 'frontmatter must be YAML, found "---coffee"'],
    ];
    for (const [text, expected] of cases) {
      const error = problem(text);
      expect(error.code).toBe("skills.invalid_skill_file");
      expect(error.file).toBe(file);
      expect(error.message.startsWith(`${file}: `), text).toBe(true);
      expect(error.message, text).toContain(expected);
    }
  });

  it("takes the lines up to the first closing line, whatever the line endings, BOM or opening spelling", () => {
    const expected = { name: "review", description: "Review code." };
    expect(parseSkillFrontmatter(file, "\uFEFF---\r\nname: review\r\ndescription: Review code.\r\n---\r\n# Body")).toEqual(expected);
    expect(parseSkillFrontmatter(file, "---yaml\nname: review\ndescription: Review code.\n...\nbody")).toEqual(expected);
    // A later `---` line belongs to the body (a Markdown rule), not to the frontmatter.
    expect(parseSkillFrontmatter(file, "--- \nname: review\ndescription: Review code.\n---\n# Body\n---\nname: other\n")).toEqual(expected);
  });

  it("never evaluates JavaScript frontmatter", () => {
    const marker = globalThis as { skillFrontmatterRan?: boolean };
    const error = problem("---js\n{ name: (globalThis.skillFrontmatterRan = true, 'x'), description: 'y' }\n---\n");
    expect(error.message).toContain('frontmatter must be YAML, found "---js"');
    expect(marker.skillFrontmatterRan).toBeUndefined();
  });
});

describe("loading the frontmatter parsers", () => {
  it("loads yaml on the first skill file parsed, not when the package is imported", async () => {
    // A child process: this test worker may have loaded them already for other tests.
    const program = `
      import { createRequire } from "node:module";
      const { parseSkillFrontmatter } = await import(${JSON.stringify(new URL("./index.ts", import.meta.url).href)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /[\\\\/]yaml[\\\\/]/.test(path)).length;
      const before = loaded();
      const parsed = parseSkillFrontmatter("SKILL.md", "---\\nname: lazy\\ndescription: Loads its parsers late.\\n---\\n");
      console.log(JSON.stringify({ before, after: loaded(), parsed }));`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], { cwd: fileURLToPath(new URL("../../..", import.meta.url)) });
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as { before: number; after: number; parsed: unknown };
    expect(report.before).toBe(0);
    expect(report.after).toBeGreaterThan(0);
    expect(report.parsed).toEqual({ name: "lazy", description: "Loads its parsers late." });
  });
});
