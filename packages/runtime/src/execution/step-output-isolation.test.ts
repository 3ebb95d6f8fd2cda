import { createToolRegistry, workflowHarness } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

// A step's output is what was recorded: a later step that changes the input a template gave it
// changes its own copy, so every later reader sees the recorded output — in the live run as on a
// resume, which reads it back from the log.

const anyObject = jsonSchema<Record<string, unknown>>({ type: "object" });
const seen: unknown[] = [];
const registry = createToolRegistry({
  // A JSON Schema tool gets its input object itself (a Zod tool would get Zod's copy).
  make: tool({ description: "Makes a record.", inputSchema: anyObject, execute: async () => ({ items: [1, 2], meta: { by: "make" } }) }),
  mangle: tool({
    description: "Changes its input in place.",
    inputSchema: anyObject,
    execute: async (input) => {
      const record = input.record as { items: number[]; meta: { by: string } };
      record.items.push(3);
      record.meta.by = "mangle";
      return { mangled: true };
    },
  }),
  look: tool({
    description: "Returns what it was given.",
    inputSchema: anyObject,
    execute: async (input) => {
      seen.push(structuredClone(input));
      return input;
    },
  }),
});

const steps = [
  { id: "make", uses: "tool.call", with: { tool: "make", args: {} }, output: { mode: "object", schema: { type: "object" } } },
  { id: "mangle", uses: "tool.call", needs: ["make"], with: { tool: "mangle", args: { record: "{{ steps.make.output }}" } }, output: { mode: "json" } },
  { id: "look", uses: "tool.call", needs: ["make", "mangle"], with: { tool: "look", args: { record: "{{ steps.make.output }}" } }, output: { mode: "json" } },
] as unknown as LwirStep[];

describe("a step's output as later steps read it", () => {
  it("is the recorded output for every reader, whatever a step does to the input a template gave it", async () => {
    seen.length = 0;
    const world = memoryWorld();
    const lwir = lwirDocument({ steps, tools: ["make", "mangle", "look"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: {}, tools: registry, workerHarness: workflowHarness, runId: "run-isolated" });
    const recorded = { items: [1, 2], meta: { by: "make" } };
    expect(seen).toEqual([{ record: recorded }]);
    expect(result.output).toEqual({ record: recorded });
    // The caller's result is its own to change.
    (result.output as { record: { items: number[] } }).record.items.push(4);
    const state = await replayRun(world, "run-isolated");
    expect(state.steps["make"]?.output).toEqual(recorded);
    expect(state.steps["look"]?.output).toEqual({ record: recorded });
  });
});
