import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import { createSchemaValidator, type JsonSchema, type SchemaValidator } from "@little-stack/lwir";
import { asSchema, jsonSchema, type Tool, type ToolSet } from "ai";
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

/**
 * Builds a registry over AI SDK `tool()`s, refusing bad names and duplicates. Every tool's input
 * is validated against its schema wherever it is called from — a model, a `tool.call` step, code
 * — because each tool in the registry carries a validator: a Zod or Standard schema brings its
 * own, and a `jsonSchema()` schema without one is given one here (Ajv, through
 * `createSchemaValidator`; draft-07 and 2020-12). Its JSON Schema, and so its digest, is unchanged.
 */
export function createToolRegistry<TOOLS extends ToolSet>(given: TOOLS): ToolRegistry<TOOLS> {
  const seen = new Map<string, string>();
  const tools = {} as Record<string, Tool>;
  for (const [name, candidate] of Object.entries(given)) {
    if (!toolNamePattern.test(name)) throw new InvalidToolNameError(name);
    const folded = name.toLowerCase();
    const existing = seen.get(folded);
    if (existing !== undefined) throw new DuplicateToolError({ name, existing });
    seen.set(folded, name);
    if (typeof candidate !== "object" || candidate === null || !("inputSchema" in candidate)) throw new NotAToolError(name);
    tools[name] = withValidatedInput(candidate as Tool);
  }
  const names = Object.keys(tools).sort();
  let snapshot: Promise<ToolRegistrySnapshot> | undefined;
  const registry: ToolRegistry<TOOLS> = {
    tools: tools as TOOLS,
    names,
    has: (name) => Object.hasOwn(tools, name),
    get(name) {
      if (!Object.hasOwn(tools, name)) throw new UnknownToolError({ name, available: names });
      return tools[name]!;
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

/**
 * The tool itself when its input schema validates (Zod, Standard Schema, a jsonSchema() given a
 * `validate`), else a copy whose schema is the same JSON Schema with a validator compiled from it
 * on first use.
 */
function withValidatedInput(tool: Tool): Tool {
  const schema = asSchema(tool.inputSchema);
  if (schema.validate !== undefined) return tool;
  const check = (validator: SchemaValidator, value: unknown) => {
    const result = validator(value);
    if (result.valid) return { success: true as const, value };
    const problems = result.errors.slice(0, 5).map((issue) => `${issue.path} ${issue.message}`);
    return { success: false as const, error: new Error(problems.join("; ")) };
  };
  // The schema may be given lazily (a promise), so the first call compiles asynchronously; once
  // compiled, a call answers synchronously (a Schema's validate may), sparing a tool.call step a
  // promise and a microtask turn.
  let compiled: SchemaValidator | undefined;
  let compiling: Promise<SchemaValidator> | undefined;
  const validate = (value: unknown) => {
    if (compiled !== undefined) return check(compiled, value);
    compiling ??= Promise.resolve(schema.jsonSchema).then((json) => (compiled = createSchemaValidator(json as JsonSchema)));
    return compiling.then((validator) => check(validator, value));
  };
  return { ...tool, inputSchema: jsonSchema(() => schema.jsonSchema, { validate }) } as Tool;
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
