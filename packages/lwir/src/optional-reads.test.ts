import { canonicalSnapshot } from "@little-stack/canonical";
import { describe, expect, it, vi } from "vitest";
import { unguardedOptionalReads } from "./optional-reads.js";
import { validateLwir } from "./validate-lwir.js";

function plan(prompt: string, extra: { outputSchema?: unknown; inputSchema?: unknown } = {}) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "orders.reply" },
    input: { schema: extra.inputSchema ?? { type: "object", properties: { orderId: { type: "string" }, note: { type: "string" } }, required: ["orderId"] } },
    output: { schema: { type: "string" } },
    permissions: { models: ["m"], tools: ["getOrder"] },
    steps: [
      {
        id: "order",
        uses: "tool.call",
        with: { tool: "getOrder", args: { id: "{{ input.orderId }}" } },
        output: {
          mode: "object",
          schema: extra.outputSchema ?? {
            type: "object",
            required: ["status", "lines"],
            properties: { status: { type: "string" }, tracking: { type: "string" }, lines: { type: "array", items: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } } }, carrier: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
          },
        },
      },
      { id: "reply", uses: "ai.generate", needs: ["order"], with: { model: "m", prompt }, output: { mode: "text" } },
    ],
  };
}

describe("unguardedOptionalReads", () => {
  it("is silent on required fields, whole optional values read through coalesce, and a document validateLwir accepts is still valid", () => {
    const document = plan("Status {{ steps.order.output.status }}; tracking {{ coalesce(steps.order.output.tracking, 'none') }}; {{ json(steps.order.output) }}");
    expect(validateLwir(document)).toEqual({ valid: true, findings: [] });
    expect(unguardedOptionalReads(document)).toEqual([]);
  });

  it.each([
    ["a declared, not required property", "Tracking {{ steps.order.output.tracking }}", 'steps.order.output may have no "tracking" (the schema does not require it)'],
    ["an index past minItems", "First {{ steps.order.output.lines[0].sku }}", "steps.order.output.lines may have fewer than 1 item (minItems 0)"],
    ["a required field of an optional object", "Carrier {{ steps.order.output.carrier.name }}", 'steps.order.output may have no "carrier"'],
    ["an optional input field", "Note {{ input.note }}", 'input may have no "note"'],
  ])("%s is reported with the coalesce fix", (_name, prompt, why) => {
    const document = plan(prompt);
    expect(validateLwir(document).valid).toBe(true);
    const reads = unguardedOptionalReads(document);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ path: "$.steps[1].with.prompt" });
    expect(reads[0]!.message).toContain(why);
    expect(reads[0]!.message).toMatch(/Wrap it: `\{\{ coalesce\(/);
  });

  it("gives a snapshot validateLwir accepted the reads found in the same pass, without parsing the plan again", () => {
    const prompt = "Tracking {{ steps.order.output.tracking }}; note {{ input.note }}";
    const expected = unguardedOptionalReads(plan(prompt));
    expect(expected).toHaveLength(2);
    const snapshot = canonicalSnapshot(plan(prompt)).value;
    expect(validateLwir(snapshot).valid).toBe(true);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const kept = unguardedOptionalReads(snapshot);
      expect(parse).not.toHaveBeenCalled();
      expect(kept).toEqual(expected);
      // Each caller gets its own list.
      (kept as unknown[]).length = 0;
      expect(unguardedOptionalReads(snapshot)).toEqual(expected);
    } finally {
      parse.mockRestore();
    }
  });

  it("computes the reads of a snapshot that was never validated, or that validateLwir rejected", () => {
    const unvalidated = canonicalSnapshot(plan("Note {{ input.note }}")).value;
    expect(unguardedOptionalReads(unvalidated)).toHaveLength(1);
    const rejected = canonicalSnapshot({ ...plan("Note {{ input.note }}"), kind: "NotAWorkflow" }).value;
    expect(validateLwir(rejected).valid).toBe(false);
    expect(unguardedOptionalReads(rejected)).toHaveLength(1);
  });

  it("never throws on junk", () => {
    expect(unguardedOptionalReads(null)).toEqual([]);
    expect(unguardedOptionalReads({ steps: 3 })).toEqual([]);
  });
});
