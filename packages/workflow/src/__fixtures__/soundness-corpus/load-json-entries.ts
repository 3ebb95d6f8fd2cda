import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "@little-stack/canonical";
import { sampleFromSchema, type ScriptedTurn } from "@little-stack/testing";
import { jsonSchema, tool } from "ai";
import { expect } from "vitest";
import { createToolRegistry } from "../../index.js";
import type { CorpusEntry, CorpusModelSlot, ExpectedFailure } from "./corpus-entry.js";

/**
 * A tool of a JSON entry: schemas and deterministic answers. A call whose arguments equal an
 * `answers` entry's `args` gets its `result` (or fails with its `error`); any other call gets
 * `result`, else a sample of `outputSchema` (`sampleFromSchema`).
 */
type JsonTool = {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly answers?: readonly ({ readonly args: unknown; readonly result: unknown } | { readonly args: unknown; readonly error: string })[];
  readonly result?: unknown;
};

/** The file format: see README.md in this folder. */
type JsonEntry = {
  readonly name: string;
  readonly origin: "model-written" | "model-evaluation";
  readonly covers: string;
  readonly definition: {
    readonly id: string;
    readonly description?: string;
    readonly input: unknown;
    readonly output: unknown;
    readonly models: readonly { readonly id: string; readonly description?: string; readonly script?: readonly ScriptedTurn[] }[];
    readonly tools?: readonly JsonTool[];
  };
  readonly plan: Record<string, unknown>;
  readonly input: unknown;
  readonly delivery?: "fixed" | "planner";
  readonly expect?: ExpectedFailure;
  /** Fields the run output must have (a partial match: model-written text aside, what a reader would check). */
  readonly expectOutput?: unknown;
};

const folder = fileURLToPath(new URL("./", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));

function toolOf(spec: JsonTool) {
  return tool({
    ...(spec.description === undefined ? {} : { description: spec.description }),
    inputSchema: jsonSchema(spec.inputSchema as never),
    outputSchema: jsonSchema(spec.outputSchema as never),
    execute: async (args: unknown) => {
      const answer = spec.answers?.find((candidate) => canonicalJson(candidate.args) === canonicalJson(args));
      if (answer !== undefined) {
        if ("error" in answer) throw new Error(answer.error);
        return answer.result;
      }
      return spec.result !== undefined ? spec.result : sampleFromSchema(spec.outputSchema as never);
    },
  });
}

function entryOf(file: string): CorpusEntry {
  const where = relative(repoRoot, file);
  let parsed: JsonEntry;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8")) as JsonEntry;
  } catch (error) {
    throw new Error(`${where}: not a JSON corpus entry (${(error as Error).message})`);
  }
  for (const field of ["name", "origin", "covers", "definition", "plan", "input"] as const) {
    if (parsed[field] === undefined) throw new Error(`${where}: a corpus entry needs "${field}" (see packages/workflow/src/__fixtures__/soundness-corpus/README.md)`);
  }
  const { definition } = parsed;
  const models: CorpusModelSlot[] = definition.models.map((slot) => ({ id: slot.id, ...(slot.description === undefined ? {} : { description: slot.description }), ...(slot.script === undefined ? {} : { script: slot.script }) }));
  const tools = definition.tools;
  return {
    name: parsed.name,
    origin: parsed.origin,
    covers: parsed.covers,
    source: where,
    definition: {
      id: definition.id,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      input: definition.input,
      output: definition.output,
      models,
      ...(tools === undefined || tools.length === 0 ? {} : { tools: () => createToolRegistry(Object.fromEntries(tools.map((spec) => [spec.name, toolOf(spec)]))) }),
    },
    plan: parsed.plan,
    input: parsed.input,
    ...(parsed.delivery === undefined ? {} : { delivery: parsed.delivery }),
    ...(parsed.expect === undefined ? {} : { expect: parsed.expect }),
    ...(parsed.expectOutput === undefined ? {} : { check: (result) => expect(result.output).toMatchObject(parsed.expectOutput as object) }),
  };
}

/** Every `*.json` entry of a folder beside this file (`model-written`, `model-evaluation`), sorted by file name. */
export function loadJsonEntries(subfolder: "model-written" | "model-evaluation"): CorpusEntry[] {
  const dir = join(folder, subfolder);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => entryOf(join(dir, name)));
}
