import { createRequire } from "node:module";
import type * as yaml from "yaml";
import { SkillDefinitionError } from "./skill-definition-error.js";

const require = createRequire(import.meta.url);
let parseYaml: typeof yaml.parse | undefined;

/**
 * The `yaml` package, loaded on the first skill file parsed (~40 ms and several MB of RSS that a
 * process whose workflows use no skills never needs; every process importing the SDK loads this
 * module). It is CommonJS, so a synchronous require keeps this parser synchronous.
 */
function loadYaml(): typeof yaml.parse {
  parseYaml ??= (require("yaml") as typeof yaml).parse;
  return parseYaml;
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

/** A line that opens the frontmatter: `---`, or `---yaml` / `---yml`. */
const openingLine = /^---\s*(?:ya?ml\s*)?$/i;
/** A line that closes it: `---`, or YAML's document end `...`. */
const closingLine = /^(?:---|\.\.\.)\s*$/;

/**
 * Parses the YAML frontmatter of a skill file: the lines between a first line `---` and the next
 * line `---` (or `...`). Only YAML is accepted — `---js` and other languages are refused, never
 * evaluated: skill files can come from other people's repositories. `file` is used in error
 * messages only.
 */
export function parseSkillFrontmatter(file: string, text: string): SkillFrontmatter {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const firstLine = lines[0] ?? "";
  if (!openingLine.test(firstLine)) {
    const language = /^---\s*(\S+)/.exec(firstLine)?.[1];
    if (language !== undefined) throw new SkillDefinitionError(file, `frontmatter must be YAML, found "---${language}".`);
    throw new SkillDefinitionError(
      file,
      "has no YAML frontmatter; start the file with\n---\nname: my-skill\ndescription: What it helps with and when to use it.\n---",
    );
  }
  const closing = lines.findIndex((line, index) => index > 0 && closingLine.test(line));
  if (closing === -1) throw new SkillDefinitionError(file, "frontmatter is not closed; end it with a line of three dashes (---).");
  let data: Record<string, unknown>;
  try {
    data = (loadYaml()(lines.slice(1, closing).join("\n")) ?? {}) as Record<string, unknown>;
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
