import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import { asSchema, type Tool, type ToolSet } from "ai";
import { DuplicateToolError, InvalidToolNameError, NotAToolError, UnknownToolError } from "../errors/tool-registry-errors.js";

/** What a manifest pins about one tool: name, description and schemas, and their digest. */
export type ToolDescriptor = {
  readonly name: string;
  readonly description: string | null;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly digest: Sha256Digest;
};

export type ToolRegistrySnapshot = {
  /** Sorted by name. */
  readonly tools: readonly ToolDescriptor[];
  /** Digest of the sorted `{ name, digest }` list: the `globalToolsHash` / `allowedToolsHash` input. */
  readonly digest: Sha256Digest;
};

export type ToolRegistry<TOOLS extends ToolSet = ToolSet> = {
  readonly tools: TOOLS;
  /** Sorted tool names. */
  readonly names: readonly string[];
  has(name: string): boolean;
  get(name: string): Tool;
  /** A registry of a subset (an allowlist), in the same order; unknown names are refused. */
  pick(names: readonly string[]): ToolRegistry;
  /** Descriptor snapshots and digests; computed once. */
  describe(): Promise<ToolRegistrySnapshot>;
};

const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Builds a registry over AI SDK `tool()`s, refusing bad names and duplicates. */
export function createToolRegistry<TOOLS extends ToolSet>(tools: TOOLS): ToolRegistry<TOOLS> {
  const seen = new Map<string, string>();
  for (const [name, candidate] of Object.entries(tools)) {
    if (!toolNamePattern.test(name)) throw new InvalidToolNameError(name);
    const folded = name.toLowerCase();
    const existing = seen.get(folded);
    if (existing !== undefined) throw new DuplicateToolError({ name, existing });
    seen.set(folded, name);
    if (typeof candidate !== "object" || candidate === null || !("inputSchema" in candidate)) throw new NotAToolError(name);
  }
  const names = Object.keys(tools).sort();
  let snapshot: Promise<ToolRegistrySnapshot> | undefined;
  const registry: ToolRegistry<TOOLS> = {
    tools,
    names,
    has: (name) => Object.hasOwn(tools, name),
    get(name) {
      if (!Object.hasOwn(tools, name)) throw new UnknownToolError({ name, available: names });
      return tools[name] as Tool;
    },
    pick(picked) {
      const subset: ToolSet = {};
      for (const name of picked) subset[name] = registry.get(name);
      return createToolRegistry(subset);
    },
    describe() {
      snapshot ??= describeTools(tools, names);
      return snapshot;
    },
  };
  return registry;
}

/** Merges registries; a name present in two of them is a DuplicateToolError. */
export function mergeToolRegistries(registries: readonly ToolRegistry[]): ToolRegistry {
  const merged: ToolSet = {};
  for (const registry of registries) {
    for (const name of registry.names) {
      const existing = Object.keys(merged).find((other) => other.toLowerCase() === name.toLowerCase());
      if (existing !== undefined) throw new DuplicateToolError({ name, existing });
      merged[name] = registry.get(name);
    }
  }
  return createToolRegistry(merged);
}

async function describeTools(tools: ToolSet, names: readonly string[]): Promise<ToolRegistrySnapshot> {
  const descriptors: ToolDescriptor[] = [];
  for (const name of names) {
    const tool = tools[name] as Tool;
    const inputSchema = await asSchema(tool.inputSchema).jsonSchema;
    const outputSchema = tool.outputSchema === undefined ? undefined : await asSchema(tool.outputSchema).jsonSchema;
    const body = {
      name,
      description: tool.description ?? null,
      inputSchema: toJson(inputSchema),
      ...(outputSchema === undefined ? {} : { outputSchema: toJson(outputSchema) }),
    };
    descriptors.push({ ...body, digest: sha256Digest(body) });
  }
  return { tools: descriptors, digest: sha256Digest(descriptors.map(({ name, digest }) => ({ name, digest }))) };
}

function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}
