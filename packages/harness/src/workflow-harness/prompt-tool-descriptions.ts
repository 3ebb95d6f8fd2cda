import { asSchema, type Tool, type ToolSet } from "ai";
import type { PromptToolDescription } from "./assemble-system-prompt.js";

/** ctx.tools as the system prompt lists them (JSON Schemas resolved). */
export async function promptToolDescriptions(tools: ToolSet): Promise<PromptToolDescription[]> {
  const descriptions: PromptToolDescription[] = [];
  for (const [name, candidate] of Object.entries(tools)) {
    const tool = candidate as Tool;
    const inputSchema = await asSchema(tool.inputSchema).jsonSchema;
    descriptions.push({ name, description: tool.description ?? null, inputSchema: JSON.parse(JSON.stringify(inputSchema ?? {})) as unknown });
  }
  return descriptions;
}
