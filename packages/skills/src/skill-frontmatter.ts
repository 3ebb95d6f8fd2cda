import type grayMatter from "gray-matter";
import { createRequire } from "node:module";
import type * as yaml from "yaml";
import { SkillDefinitionError } from "./skill-definition-error.js";

const require = createRequire(import.meta.url);
let parsers: { readonly matter: typeof grayMatter; readonly parseYaml: typeof yaml.parse } | undefined;

/**
 * gray-matter and yaml, loaded on the first skill file parsed: together they add ~15 MB of RSS
 * (gray-matter pulls in js-yaml and esprima) that a process whose workflows use no skills never
 * needs, and every process importing the SDK loads this module. Both are CommonJS, so a
 * synchronous require keeps this parser synchronous.
 */
function loadParsers(): NonNullable<typeof parsers> {
  parsers ??= { matter: require("gray-matter") as typeof grayMatter, parseYaml: (require("yaml") as typeof yaml).parse };
  return parsers;
}

/** The frontmatter fields the SDK reads from a SKILL.md. */
export type SkillFrontmatter = {
  readonly name: string;
  readonly description: string;
};

/**
 * Skill names become directory names (`.agents/skills/<name>/`): lower-case letters, digits and
 * single hyphens, starting with a letter or digit, at most 64 characters.
 */
const namePattern = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;
const maxDescriptionLength = 1024;

function refuseCode(language: string): never {
  throw new Error(`frontmatter language "${language}" is not allowed`);
}

/**
 * Parses the YAML frontmatter of a skill file. Only YAML is accepted: gray-matter would otherwise
 * evaluate `---js` frontmatter as JavaScript in the host process, and skill files can come from
 * other people's repositories. `file` is used in error messages only.
 */
export function parseSkillFrontmatter(file: string, text: string): SkillFrontmatter {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  if (!/^---\s*$/.test(firstLine)) {
    const language = /^---\s*(\S+)/.exec(firstLine)?.[1];
    if (language !== undefined && !["yaml", "yml"].includes(language.toLowerCase())) {
      throw new SkillDefinitionError(file, `frontmatter must be YAML, found "---${language}".`);
    }
    if (language === undefined) {
      throw new SkillDefinitionError(
        file,
        "has no YAML frontmatter; start the file with\n---\nname: my-skill\ndescription: What it helps with and when to use it.\n---",
      );
    }
  }
  let data: Record<string, unknown>;
  try {
    const { matter, parseYaml } = loadParsers();
    // Always an options object: without one gray-matter caches results by input text.
    const parsed = matter(text, {
      engines: {
        yaml: (source: string) => (parseYaml(source) ?? {}) as object,
        javascript: () => refuseCode("javascript"),
        coffee: () => refuseCode("coffee"),
      },
    });
    data = parsed.data as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new SkillDefinitionError(file, `frontmatter is not valid YAML (${reason}).`, { cause: error });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new SkillDefinitionError(file, "frontmatter must be a YAML mapping with name and description.");
  }
  const missing = ["name", "description"].filter((key) => data[key] === undefined || data[key] === null || data[key] === "");
  if (missing.length > 0) {
    throw new SkillDefinitionError(file, `frontmatter is missing required field${missing.length > 1 ? "s" : ""} ${missing.map((key) => `"${key}"`).join(" and ")}.`);
  }
  const { name, description } = data;
  if (typeof name !== "string" || !namePattern.test(name)) {
    throw new SkillDefinitionError(
      file,
      `frontmatter "name" must be lower-case letters, digits and single hyphens (at most 64 characters), got ${JSON.stringify(name)}.`,
    );
  }
  if (typeof description !== "string" || description.trim() === "") {
    throw new SkillDefinitionError(file, `frontmatter "description" must be a non-empty string, got ${JSON.stringify(description)}.`);
  }
  const oneLine = description.replace(/\s+/g, " ").trim();
  if (oneLine.length > maxDescriptionLength) {
    throw new SkillDefinitionError(file, `frontmatter "description" is ${oneLine.length} characters; keep it under ${maxDescriptionLength}.`);
  }
  return { name, description: oneLine };
}
