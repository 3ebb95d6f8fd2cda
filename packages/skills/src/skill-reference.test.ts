import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { skill } from "./skill-reference.js";
import { SkillSourceError } from "./skill-source-error.js";

const sha = "0123456789abcdef0123456789abcdef01234567";

function errorOf(spec: string): SkillSourceError {
  try {
    skill(spec);
  } catch (error) {
    if (error instanceof SkillSourceError) return error;
    throw error;
  }
  throw new Error(`expected ${spec} to be refused`);
}

describe("skill()", () => {
  it("resolves local paths against baseDir or the working directory", () => {
    expect(skill("./skills/review", { baseDir: "/repo" }).source).toEqual({ kind: "local", path: "/repo/skills/review" });
    expect(skill("skills/one.md").source).toEqual({ kind: "local", path: resolve("skills/one.md") });
    expect(skill("/abs/dir/../x").source).toEqual({ kind: "local", path: "/abs/x" });
  });

  it("parses git sources pinned to a full commit, with an optional subdirectory", () => {
    expect(skill(`https://example.com/org/skills.git#${sha}`).source).toEqual({
      kind: "git",
      url: "https://example.com/org/skills.git",
      commit: sha,
      subdirectory: "",
    });
    expect(skill(`git+https://example.com/org/skills#${sha.toUpperCase()}:review/`).source).toEqual({
      kind: "git",
      url: "https://example.com/org/skills",
      commit: sha,
      subdirectory: "review",
    });
    expect(skill(`git+ssh://git@example.com/org/skills.git#${sha}:a/b`).source).toMatchObject({ url: "ssh://git@example.com/org/skills.git", subdirectory: "a/b" });
  });

  it("refuses a tag, a branch, an abbreviated SHA or no pin at all, saying to pin a full commit", () => {
    for (const spec of [
      "https://example.com/org/skills.git#v1.2.0",
      "git+https://example.com/org/skills#main",
      "https://example.com/org/skills.git#0123456",
      "https://example.com/org/skills.git",
    ]) {
      const error = errorOf(spec);
      expect(error.code, spec).toBe("skills.unpinned_git_source");
      expect(error.message, spec).toContain("pin a full 40-character commit SHA");
    }
    expect(errorOf("https://example.com/org/skills.git#v1.2.0").message).toContain('"v1.2.0", which is a tag, branch or abbreviated SHA');
  });

  it("refuses other URLs, unsafe transports, scp syntax and escaping subdirectories", () => {
    expect(errorOf(`https://example.com/raw/SKILL.md#${sha}`).code).toBe("skills.invalid_source");
    expect(errorOf(`git+ext::sh -c evil#${sha}`).code).toBe("skills.invalid_source");
    expect(errorOf(`git@example.com:org/skills.git#${sha}`).message).toContain("git+ssh://");
    expect(errorOf(`https://example.com/s.git#${sha}:../x`).message).toContain("subdirectory");
    expect(errorOf(`https://example.com/s.git#${sha}:/etc`).code).toBe("skills.invalid_source");
    expect(errorOf("").code).toBe("skills.invalid_source");
    expect(errorOf("a\0b").message).toContain("NUL");
  });
});
