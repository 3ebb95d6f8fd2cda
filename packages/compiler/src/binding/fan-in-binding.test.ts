import { validateLwir } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { fanInFindings } from "./fan-in-binding.js";

const order = { type: "object", required: ["orderId", "totalCents"], properties: { orderId: { type: "string" }, totalCents: { type: "integer" } } };

function entrySchema(output: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "object",
    required: ["itemKey", "status", "artifacts"],
    properties: { itemKey: { type: "string" }, status: { type: "string", enum: ["completed", "failed"] }, output, outputRef: { type: "string" }, error: { type: "object" }, artifacts: { type: "array", items: { type: "string" } } },
    ...extra,
  };
}

function plan(options: { entry: Record<string, unknown>; body?: unknown[]; failureMode?: string; outputStep?: string }): Record<string, unknown> {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "w" },
    input: { schema: { type: "object", required: ["ids"], properties: { ids: { type: "array", items: { type: "string" }, maxItems: 5 } } } },
    output: { schema: true },
    permissions: { models: ["m"], tools: ["getOrder"] },
    steps: [
      {
        id: "orders",
        uses: "parallel",
        with: {
          items: "{{ input.ids }}",
          itemKey: "{{ item }}",
          cardinality: { kind: "matches_items" },
          maxBranches: 5,
          maxConcurrency: 2,
          failureMode: options.failureMode ?? "fail_fast",
          fanIn: { order: "input", output: "array", ...(options.outputStep === undefined ? {} : { outputStep: options.outputStep }) },
        },
        steps: options.body ?? [{ id: "fetch", uses: "tool.call", with: { tool: "getOrder", args: { orderId: "{{ item }}" } }, output: { mode: "object", schema: order } }],
        output: { mode: "array", schema: { type: "array", items: options.entry } },
      },
    ],
  };
}

describe("fanInFindings: fan-in entries against the parallel step's output schema", () => {
  it("accepts the skill's template with the branch output schema under output, under both failure modes", () => {
    for (const failureMode of ["fail_fast", "all_settled"]) {
      const lwir = plan({ entry: entrySchema(order), failureMode });
      expect(validateLwir(lwir).findings).toEqual([]);
      expect(fanInFindings(lwir)).toEqual([]);
    }
    expect(fanInFindings(plan({ entry: entrySchema(true) }))).toEqual([]);
  });

  it("reports an entry output that asks for a field the branch output does not have", () => {
    const lwir = plan({ entry: entrySchema({ type: "object", required: ["orderId", "amountCents"], properties: { orderId: { type: "string" }, amountCents: { type: "integer" } } }) });
    expect(validateLwir(lwir).findings).toEqual([]);
    expect(fanInFindings(lwir)).toEqual([
      {
        severity: "error",
        code: "binding.fan_in_output_mismatch",
        path: "$.steps[0].output.schema.items",
        message: expect.stringMatching(/an entry whose output comes from "fetch" at \$\.output\.amountCents: required by the fan-in item schema, optional in the entry/),
      },
    ]);
  });

  it("checks the outputStep's output, not the branch's last step", () => {
    const body = [
      { id: "fetch", uses: "tool.call", with: { tool: "getOrder", args: { orderId: "{{ item }}" } }, output: { mode: "object", schema: order } },
      { id: "note", uses: "ai.generate", needs: ["fetch"], with: { model: "m", prompt: "{{ steps.fetch.output.orderId }}" }, output: { mode: "text" } },
    ];
    expect(fanInFindings(plan({ entry: entrySchema(order), body, outputStep: "fetch" }))).toEqual([]);
    expect(fanInFindings(plan({ entry: entrySchema(order), body }))[0]?.message).toMatch(/output comes from "note" at \$\.output: the entry may produce string, the fan-in item schema requires object/);
  });

  it("reports a closed entry schema that leaves out fields the entry has, and failed entries a completed-only status rejects", () => {
    const closed = plan({ entry: { type: "object", required: ["itemKey", "status", "artifacts"], properties: { itemKey: { type: "string" }, status: { type: "string" }, output: order, artifacts: { type: "array" } }, additionalProperties: false } });
    expect(fanInFindings(closed)[0]?.message).toMatch(/at \$\.outputRef: the fan-in item schema accepts no value here/);
    const settled = plan({ entry: entrySchema(order, { properties: { ...(entrySchema(order).properties as object), status: { const: "completed" } } }), failureMode: "all_settled" });
    expect(fanInFindings(settled)[0]?.message).toMatch(/a failed entry \(all_settled\) at \$\.status: the entry may produce "failed"/);
  });
});
