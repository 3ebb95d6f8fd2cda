import { sha256DigestOfBytes } from "@little-stack/canonical";
import { validateLwir } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { completeSubmission, type SubmissionDefaults } from "./complete-submission.js";

const defaults: SubmissionDefaults = {
  workflowId: "shop.total",
  inputSchema: { type: "object", properties: { items: { type: "array", items: { type: "string" } } }, required: ["items"] },
  outputSchema: { type: "object", properties: { total: { type: "number" }, note: { type: "string" } }, required: ["total", "note"] },
  toolNames: ["price", "rate", "unused"],
};

const code = "export async function run({ input, tools }) {\n  const p = await tools.price({ sku: input.items[0] });\n  const r = await tools['rate']({ currency: 'EUR' });\n  return { total: p.amount * r.rate };\n}\n";

const stepsOnly = {
  steps: [
    { id: "sum", uses: "code.run", with: { entrypoint: "sum.js", files: { "sum.js": code }, sandbox: { network: "deny" } }, output: { mode: "object", schema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } } },
    {
      id: "notes",
      uses: "parallel",
      needs: ["sum"],
      with: { items: "{{ input.items }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
      steps: [{ id: "say", uses: "ai.generate", with: { model: "fast", prompt: "Describe {{ item }}" }, output: { mode: "text" } }],
      output: { mode: "array", schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts", "output"], properties: { itemKey: { type: "string" }, status: { type: "string" }, artifacts: { type: "array" }, output: { type: "string" } } } } },
    },
    { id: "final", uses: "ai.generate", needs: ["notes", "sum"], with: { model: "strong", prompt: "Total {{ steps.sum.output.total }}: {{ json(steps.notes.output) }}" }, output: { mode: "object", schema: defaults.outputSchema } },
  ],
};

describe("completeSubmission", () => {
  it("turns a steps-only submission into a complete, valid document", () => {
    const completed = completeSubmission(stepsOnly, defaults) as Record<string, any>;
    expect(completed).toMatchObject({
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "shop.total" },
      input: { schema: defaults.inputSchema },
      output: { schema: defaults.outputSchema },
      // Models from ai.generate steps (bodies included); tools from what the code names.
      permissions: { models: ["fast", "strong"], tools: ["price", "rate"] },
    });
    expect(completed.steps[0].with.files["sum.js"]).toEqual({ content: code, sha256: sha256DigestOfBytes(code) });
    expect(validateLwir(completed)).toEqual({ valid: true, findings: [] });
  });

  it("keeps what the model wrote, so a wrong value is still found by validation", () => {
    const given = {
      ...stepsOnly,
      metadata: { name: "other", version: "1" },
      permissions: { models: ["fast"] },
      steps: [{ ...stepsOnly.steps[0], with: { ...stepsOnly.steps[0]!.with, files: { "sum.js": { content: code, sha256: "sha256:00" } } } }],
    };
    const completed = completeSubmission(given, defaults) as Record<string, any>;
    expect(completed.metadata).toEqual({ name: "other", version: "1" });
    expect(completed.permissions).toEqual({ models: ["fast"], tools: ["price", "rate"] });
    expect(completed.steps[0].with.files["sum.js"].sha256).toBe("sha256:00");
    expect(validateLwir(completed).findings.map((finding) => finding.code)).toContain("code.invalid_file_hash");
  });

  it("fills a file given as { content } and a metadata without a name; derives fixer models and tool.call tools", () => {
    const completed = completeSubmission(
      {
        metadata: { description: "x" },
        steps: [
          { id: "get", uses: "tool.call", with: { tool: "unused" }, output: { mode: "json" } },
          { id: "fix", uses: "code.run", with: { entrypoint: "a.ts", files: { "a.ts": { content: "export async function run() { return 1; }" } }, sandbox: { network: "deny" } }, output: { mode: "json" }, onFailure: { fixer: { model: "repair", maxAttempts: 1, system: "fix" } } },
        ],
      },
      defaults,
    ) as Record<string, any>;
    expect(completed.metadata).toEqual({ name: "shop.total", description: "x" });
    expect(completed.permissions).toEqual({ models: ["repair"], tools: ["unused"] });
    expect(completed.steps[1].with.files["a.ts"].sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("is idempotent and leaves non-objects alone", () => {
    const once = completeSubmission(stepsOnly, defaults);
    expect(completeSubmission(once, defaults)).toEqual(once);
    expect(completeSubmission("text", defaults)).toBe("text");
    expect(completeSubmission(null, defaults)).toBe(null);
  });

  it("returns a complete document as the same object, and copies only what it fills in", () => {
    const once = completeSubmission(stepsOnly, defaults) as { steps: unknown[] };
    expect(completeSubmission(once, defaults)).toBe(once);
    const steps = (stepsOnly.steps as unknown[]).slice();
    const partly = completeSubmission({ ...(once as object), steps: [...once.steps.slice(0, 1).map(() => steps[0]), ...once.steps.slice(1)] }, defaults) as { steps: unknown[] };
    // Only the code.run step (its file given as a string) was rebuilt; the others are the same objects.
    expect(partly.steps[0]).not.toBe(steps[0]);
    expect(partly.steps[1]).toBe(once.steps[1]);
    expect(partly.steps[2]).toBe(once.steps[2]);
    expect(partly).toEqual(once);
  });
});
