import { skillsPromptBlock } from "@little-stack/skills";
import { describeSchemaShape } from "./describe-schema-shape.js";

/** A tool as the prompt shows it: name, description and input JSON Schema. */
export type PromptToolDescription = { readonly name: string; readonly description?: string | null; readonly inputSchema: unknown };

type PromptMount = { readonly mountPath: string; readonly mode: "rw" | "ro"; readonly purpose?: string };

export type SystemPromptParts = {
  /** 1. ctx.system: the developer's intent. */
  readonly system?: string;
  /** 2. The SDK-shipped addendum of the session's role. */
  readonly roleAddendum: string;
  /** 3. Skill frontmatter (bodies are read through bash). */
  readonly skills: readonly { readonly name: string; readonly description: string }[];
  /** 4. Memory and scratch mounts. */
  readonly memoryMounts: readonly PromptMount[];
  readonly scratchMounts: readonly PromptMount[];
  /** 5. Tools from ctx.tools, with their input schemas. */
  readonly tools: readonly PromptToolDescription[];
};

function mountLines(mounts: readonly PromptMount[]): string[] {
  return mounts.map((mount) => {
    const path = mount.mountPath.endsWith("/") ? mount.mountPath : `${mount.mountPath}/`;
    return `- ${path} (${mount.mode})${mount.purpose === undefined ? "" : ` — ${mount.purpose.replace(/\.$/, "")}`}.`;
  });
}

function toolLine(tool: PromptToolDescription): string {
  const description = (tool.description ?? "").trim().replace(/\s+/g, " ");
  const sentence = description.length === 0 || /[.!?]$/.test(description) ? description : `${description}.`;
  return `- ${tool.name}: ${sentence}${sentence.length === 0 ? "" : " "}Input: ${describeSchemaShape(tool.inputSchema)}.`;
}

/**
 * The system prompt of an agent-loop session, in seed 003's order: ctx.system, the role
 * addendum, the skill list, the mount descriptions, the available tools. Empty sections are left
 * out; sections are separated by a blank line. Pure: the same parts give the same text, so the
 * prompt hash is stable across resumes.
 */
export function assembleSystemPrompt(parts: SystemPromptParts): string {
  const sections: string[] = [];
  const system = parts.system?.trim();
  if (system !== undefined && system.length > 0) sections.push(system);
  if (parts.roleAddendum.trim().length > 0) sections.push(parts.roleAddendum.trim());
  const skills = skillsPromptBlock(parts.skills);
  if (skills.length > 0) sections.push(skills);
  if (parts.memoryMounts.length > 0) sections.push(["Memory mounts (read with bash):", ...mountLines(parts.memoryMounts)].join("\n"));
  if (parts.scratchMounts.length > 0) sections.push(["Scratch mounts (ephemeral, this run only):", ...mountLines(parts.scratchMounts)].join("\n"));
  if (parts.tools.length > 0) {
    const sorted = [...parts.tools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    sections.push(["Available tools:", ...sorted.map(toolLine)].join("\n"));
  }
  return sections.join("\n\n");
}
