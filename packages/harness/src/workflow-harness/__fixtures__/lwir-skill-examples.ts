import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built-in `lwir` skill staged for every planner session (.agents/skills/lwir/). */
export const skillDirectory = fileURLToPath(new URL("../../../skills/lwir/", import.meta.url));
export const skillFiles = readdirSync(skillDirectory).sort();

export function skillText(file: string): string {
  return readFileSync(join(skillDirectory, file), "utf8");
}

export type ExampleStep = {
  readonly id: string;
  readonly uses: string;
  readonly needs?: readonly string[];
  readonly input?: unknown;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly output?: { readonly mode?: string };
  readonly steps?: readonly ExampleStep[];
  readonly onFailure?: unknown;
};

export type ExampleDocument = {
  readonly metadata: { readonly name: string };
  readonly permissions?: { readonly tools?: readonly string[] };
  readonly steps: readonly ExampleStep[];
};

export type SkillExample = {
  /** `file.md:line` of the example's tag. */
  readonly where: string;
  readonly expected: { readonly kind: "valid" } | { readonly kind: "invalid"; readonly code: string };
  readonly document: unknown;
};

const tagPattern = /^<!-- example: (valid|invalid ([a-z_.]+)) -->$/;

/**
 * Every tagged example of a skill file: a line `<!-- example: valid -->` or
 * `<!-- example: invalid <finding code> -->` right before a ```json block. Throws on a ```json
 * block without a tag (every JSON block is an example, so every one is tested), on a tag without
 * a block, and on a block that is not JSON.
 */
export function examplesIn(file: string): SkillExample[] {
  const lines = skillText(file).split("\n");
  const examples: SkillExample[] = [];
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (line.startsWith("<!-- example")) {
      const tag = tagPattern.exec(line);
      if (tag === null) throw new Error(`${where}: malformed example tag ${JSON.stringify(line)}`);
      if (lines[index + 1] !== "```json") throw new Error(`${where}: an example tag must be followed by a \`\`\`json block`);
      const end = lines.indexOf("```", index + 2);
      if (end < 0) throw new Error(`${where}: the example's \`\`\`json block is never closed`);
      let document: unknown;
      try {
        document = JSON.parse(lines.slice(index + 2, end).join("\n"));
      } catch (error) {
        throw new Error(`${where}: the example is not JSON (${(error as Error).message})`);
      }
      examples.push({ where, expected: tag[2] === undefined ? { kind: "valid" } : { kind: "invalid", code: tag[2] }, document });
    }
    if (line === "```json" && lines[index - 1]?.startsWith("<!-- example") !== true) {
      throw new Error(`${where}: every \`\`\`json block is an example and needs an example tag on the line before it`);
    }
  });
  return examples;
}

export const skillExamples: readonly SkillExample[] = skillFiles.flatMap(examplesIn);

export const validExampleDocuments: readonly ExampleDocument[] = skillExamples
  .filter((example) => example.expected.kind === "valid")
  .map((example) => example.document as ExampleDocument);

/** The steps of a list and of every parallel body in it. */
export function allExampleSteps(steps: readonly ExampleStep[]): ExampleStep[] {
  return steps.flatMap((step) => [step, ...allExampleSteps(step.steps ?? [])]);
}
