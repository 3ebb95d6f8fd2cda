import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LittleWorkflowError } from "@little-stack/canonical";
import { createToolRegistry, type ToolRegistry } from "@little-stack/harness";
import type { ToolSet } from "ai";
import { CliInputError } from "../cli-errors.js";

/**
 * Imports the `--tools` ES module and returns its tools as a registry. The module exports `tools`
 * (or a default export): a record of AI SDK `tool()`s, or a registry from createToolRegistry.
 * Anything that goes wrong — missing file, a throw while loading, the wrong export — is one
 * CliInputError line naming the module.
 */
export async function loadToolsModule(options: { path: string; cwd: string }): Promise<ToolRegistry> {
  const absolutePath = resolve(options.cwd, options.path);
  if (!existsSync(absolutePath)) throw new CliInputError(`cannot load tools module ${options.path}: no such file — check the path`);
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(absolutePath).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliInputError(`cannot load tools module ${options.path}: ${describe(error)} — fix the module (it must be an ES module Node can import)`, { cause: error });
  }
  const exported = loaded["tools"] ?? loaded["default"];
  if (isToolRegistry(exported)) return exported;
  if (typeof exported !== "object" || exported === null || Array.isArray(exported)) {
    throw new CliInputError(`tools module ${options.path} exports no "tools" (or default) record of AI SDK tools — export const tools = { name: tool({ … }) }`);
  }
  try {
    return createToolRegistry(exported as ToolSet);
  } catch (error) {
    throw new CliInputError(`tools module ${options.path}: ${describe(error)}`, { cause: error });
  }
}

function isToolRegistry(value: unknown): value is ToolRegistry {
  const candidate = value as Partial<ToolRegistry> | null | undefined;
  return typeof candidate === "object" && candidate !== null && typeof candidate.pick === "function" && typeof candidate.describe === "function" && typeof candidate.has === "function";
}

function describe(error: unknown): string {
  if (LittleWorkflowError.is(error)) return error.message.replace(/\s*\n\s*/g, " ");
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.trim().split("\n")[0]!;
}
