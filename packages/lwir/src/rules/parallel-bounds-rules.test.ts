import { describe, expect, it } from "vitest";
import { validateLwir } from "../validate-lwir.js";

function fanOut(options: { maxItems?: number; maxBranches: number; items?: string }): unknown {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bounds" },
    input: { schema: { type: "object", required: ["ids"], properties: { ids: { type: "array", items: { type: "string" }, ...(options.maxItems === undefined ? {} : { maxItems: options.maxItems }) } } } },
    output: { schema: true },
    permissions: { models: ["m"], tools: [] },
    steps: [
      {
        id: "each",
        uses: "parallel",
        with: { items: options.items ?? "{{ input.ids }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: options.maxBranches, maxConcurrency: 1, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "say", uses: "ai.generate", with: { model: "m", prompt: "{{ item }}" }, output: { mode: "text" } }],
        output: { mode: "array", schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts"], properties: { itemKey: { type: "string" }, status: { type: "string" }, output: { type: "string" }, artifacts: { type: "array" } } } } },
      },
    ],
  };
}

describe("parallel bounds: maxBranches against the items' maxItems", () => {
  it("accepts maxBranches at or above maxItems, and items whose schema sets no maxItems", () => {
    expect(validateLwir(fanOut({ maxItems: 10, maxBranches: 10 })).findings).toEqual([]);
    expect(validateLwir(fanOut({ maxItems: 3, maxBranches: 10 })).findings).toEqual([]);
    expect(validateLwir(fanOut({ maxBranches: 5 })).findings).toEqual([]);
  });

  it("reports maxBranches below the maxItems of the items' schema", () => {
    expect(validateLwir(fanOut({ maxItems: 10, maxBranches: 2 })).findings).toEqual([
      { severity: "error", code: "parallel.invalid_branches", path: "$.steps[0].with.maxBranches", message: expect.stringMatching(/maxBranches is 2, but with\.items can hold up to 10 items .* set maxBranches to at least 10/) },
    ]);
  });
});
