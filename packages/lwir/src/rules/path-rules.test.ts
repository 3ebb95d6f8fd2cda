import { describe, expect, it } from "vitest";
import { validateLwir } from "../validate-lwir.js";

// A small valid document: fetch (tool) → fan-out over input.docs → a review loop → finish.
function documentWith(mutate: (steps: Record<string, any>[]) => void): unknown {
  const steps: Record<string, any>[] = [
    { id: "fetch", uses: "tool.call", with: { tool: "lookup", args: { id: "{{ input.ticket.id }}" } }, output: { mode: "object", schema: { type: "object", properties: { plan: { type: "string" } }, additionalProperties: false } } },
    {
      id: "each",
      uses: "parallel",
      needs: ["fetch"],
      with: { items: "{{ input.docs }}", itemKey: "{{ item.name }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
      steps: [{ id: "sum", uses: "ai.generate", with: { model: "m", prompt: "Summarize {{ item.body }}" }, output: { mode: "text" } }],
      output: { mode: "array", schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts", "output"], properties: { itemKey: { type: "string" }, status: { type: "string" }, artifacts: { type: "array" }, output: { type: "string" } } } } },
    },
    { id: "draft", uses: "ai.generate", needs: ["each"], maxVisits: 3, with: { model: "m", prompt: "Draft from {{ json(steps.each.output) }}; notes: {{ coalesce(steps.critique.lastOutput.notes, 'none') }}" }, output: { mode: "text" } },
    { id: "critique", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "m", prompt: "Critique {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: { type: "object", required: ["ok", "notes"], properties: { ok: { type: "boolean" }, notes: { type: "string" } }, additionalProperties: false } } },
    { id: "gate", uses: "decision", needs: ["critique"], maxVisits: 3, with: { cases: [{ when: "{{ steps.critique.lastOutput.ok === false }}", to: "draft" }], default: "finish" } },
    { id: "finish", uses: "ai.generate", with: { model: "m", prompt: "Final: {{ steps.draft.lastOutput }} after {{ len(steps.critique.allVisits) }} rounds ({{ steps.gate.lastOutput.chosen }})" }, output: { mode: "text" } },
  ];
  mutate(steps);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "paths" },
    input: {
      schema: {
        type: "object",
        required: ["ticket", "docs"],
        properties: {
          ticket: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
          docs: { type: "array", items: { type: "object", properties: { name: { type: "string" }, body: { type: "string" } }, required: ["name", "body"], additionalProperties: false } },
        },
        additionalProperties: false,
      },
    },
    output: { schema: { type: "string" } },
    permissions: { models: ["m"], tools: ["lookup"] },
    steps,
  };
}

function codesAndPaths(document: unknown) {
  return validateLwir(document).findings.map((finding) => ({ code: finding.code, path: finding.path, message: finding.message }));
}

describe("path rules: paths the document rules out", () => {
  it("accepts the base document", () => {
    expect(codesAndPaths(documentWith(() => {}))).toEqual([]);
  });

  it.each([
    ["an input field the input schema does not have", (steps: any[]) => (steps[0].with.args.id = "{{ input.ticket.number }}"), "$.steps[0].with.args.id", /input\.ticket has no property "number" \(its schema allows only "id"\), according to the workflow's input.schema/],
    ["an item field the items' schema does not have", (steps: any[]) => (steps[1].steps[0].with.prompt = "{{ item.title }}"), "$.steps[1].steps[0].with.prompt", /item has no property "title".*the schema of the parallel step's items/],
    ["the same in the itemKey", (steps: any[]) => (steps[1].with.itemKey = "{{ item.key }}"), "$.steps[1].with.itemKey", /item has no property "key"/],
    ["a property of a text output", (steps: any[]) => (steps[3].with.prompt = "Critique {{ steps.draft.lastOutput.text }}"), "$.steps[3].with.prompt", /steps\.draft\.lastOutput is a string: it has no property "text"/],
    ["allVisits.length", (steps: any[]) => (steps[5].with.prompt = "{{ steps.critique.allVisits.length }}"), "$.steps[5].with.prompt", /steps\.critique\.allVisits is an array: it has no property "length" \(use len\(…\) for its length\)/],
    ["a field a closed object output does not have", (steps: any[]) => (steps[4].with.cases[0].when = "{{ steps.critique.lastOutput.approved === false }}"), "$.steps[4].with.cases[0].when", /steps\.critique\.lastOutput has no property "approved"/],
    ["anything but chosen of a decision", (steps: any[]) => (steps[5].with.prompt = "{{ steps.gate.lastOutput.target }}"), "$.steps[5].with.prompt", /steps\.gate\.lastOutput has no property "target" \(its schema allows only "chosen"\)/],
    ["a fan-in entry field the array schema does not allow", (steps: any[]) => (steps[2].with.prompt = "{{ steps.each.output[0].output.x }}"), "$.steps[2].with.prompt", /steps\.each\.output\[0\]\.output is a string/],
  ])("%s", (_name, mutate, path, message) => {
    const findings = codesAndPaths(documentWith(mutate));
    expect(findings).toEqual([{ code: "expression.invalid_path", path, message: expect.stringMatching(message) }]);
  });

  it("allows what the schema leaves open (an object schema without additionalProperties: false)", () => {
    const findings = codesAndPaths(
      documentWith((steps) => {
        steps[0].output = { mode: "object", schema: { type: "object" } };
        steps[2].needs = ["each", "fetch"];
        steps[2].with.prompt = "{{ steps.fetch.output.anything.deeper }} {{ coalesce(steps.critique.lastOutput.notes, '') }}";
      }),
    );
    expect(findings).toEqual([]);
  });
});

describe("back-edge reads below lastOutput / allVisits need coalesce", () => {
  it.each([
    ["lastOutput.field", "notes: {{ steps.critique.lastOutput.notes }}"],
    ["allVisits[0]", "first: {{ steps.critique.allVisits[0] }}"],
  ])("%s without coalesce is a finding that shows the fix", (_name, prompt) => {
    const findings = codesAndPaths(documentWith((steps) => (steps[2].with.prompt = `Draft {{ json(steps.each.output) }} ${prompt}`)));
    expect(findings).toEqual([
      {
        code: "expression.unguarded_back_edge_read",
        path: "$.steps[2].with.prompt",
        message: expect.stringMatching(/has not run yet in the loop's first pass .* wrap it in coalesce, e\.g\. `\{\{ coalesce\(steps\.critique\./),
      },
    ]);
  });

  it("a bare lastOutput / allVisits read along a back-edge is fine (null / [] in the first pass)", () => {
    const findings = codesAndPaths(documentWith((steps) => (steps[2].with.prompt = "Draft {{ json(steps.each.output) }} {{ steps.critique.lastOutput }} {{ len(steps.critique.allVisits) }}")));
    expect(findings).toEqual([]);
  });

  it("reads of steps in needs are never back-edge reads", () => {
    const findings = codesAndPaths(documentWith((steps) => (steps[4].with.cases[0].when = "{{ steps.critique.allVisits[0].ok === false }}")));
    expect(findings).toEqual([]);
  });
});
