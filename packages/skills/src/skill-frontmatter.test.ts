import { describe, expect, it } from "vitest";
import { SkillDefinitionError } from "./skill-definition-error.js";
import { parseSkillFrontmatter } from "./skill-frontmatter.js";

const file = "/skills/review/SKILL.md";

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
    ];
    for (const [text, expected] of cases) {
      const error = problem(text);
      expect(error.code).toBe("skills.invalid_skill_file");
      expect(error.file).toBe(file);
      expect(error.message.startsWith(`${file}: `), text).toBe(true);
      expect(error.message, text).toContain(expected);
    }
  });

  it("never evaluates JavaScript frontmatter", () => {
    const marker = globalThis as { skillFrontmatterRan?: boolean };
    const error = problem("---js\n{ name: (globalThis.skillFrontmatterRan = true, 'x'), description: 'y' }\n---\n");
    expect(error.message).toContain('frontmatter must be YAML, found "---js"');
    expect(marker.skillFrontmatterRan).toBeUndefined();
  });
});
