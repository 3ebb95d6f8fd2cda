import { describe, expect, it } from "vitest";
import { validateLwir } from "../validate-lwir.js";

// A review loop (draft → critique → gate → draft | publish) after a score step with a text output.
function documentWith(mutate: (steps: Record<string, any>[]) => void): unknown {
  const steps: Record<string, any>[] = [
    { id: "score", uses: "ai.generate", with: { model: "m", prompt: "Score {{ input.essay }} from 1 to 10." }, output: { mode: "text" } },
    { id: "rating", uses: "ai.generate", with: { model: "m", prompt: "Rate {{ input.essay }}." }, output: { mode: "object", schema: { type: "object", required: ["value"], properties: { value: { type: "integer" } } } } },
    { id: "draft", uses: "ai.generate", needs: ["score", "rating"], maxVisits: 3, with: { model: "m", prompt: "Draft ({{ len(input.essay) }} chars)." }, output: { mode: "text" } },
    { id: "critique", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "m", prompt: "Critique {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: { type: "object", required: ["ok", "notes"], properties: { ok: { type: "boolean" }, notes: { type: "string" } } } } },
    { id: "gate", uses: "decision", needs: ["critique"], maxVisits: 3, with: { cases: [{ when: "{{ steps.critique.lastOutput.ok === false && len(steps.draft.allVisits) < 3 }}", to: "draft" }], default: "publish" } },
    { id: "publish", uses: "ai.generate", needs: ["draft"], with: { model: "m", prompt: "Publish {{ steps.draft.lastOutput }}" }, output: { mode: "text" } },
  ];
  mutate(steps);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "operands" },
    input: { schema: { type: "object", required: ["essay", "count"], properties: { essay: { type: "string" }, count: { type: "integer" }, extra: true } } },
    output: { schema: { type: "string" } },
    permissions: { models: ["m"], tools: [] },
    steps,
  };
}

function findings(document: unknown) {
  return validateLwir(document).findings.map((finding) => ({ code: finding.code, path: finding.path, message: finding.message }));
}

const prompt = (steps: Record<string, any>[], index: number, text: string) => {
  steps[index]!.with.prompt = text;
};

describe("operand type rules: expressions no value can evaluate", () => {
  it("accepts the base document, comparisons of numbers, len of strings, arrays and objects, and reads the document does not type", () => {
    expect(findings(documentWith(() => {}))).toEqual([]);
    const ok = documentWith((steps) => {
      prompt(steps, 2, "{{ len(coalesce(steps.draft.lastOutput, '')) }} {{ len(steps.critique.allVisits) }} {{ coalesce(steps.critique.lastOutput.notes, 'none') }} {{ lower(input.essay) }} {{ len(input.extra) }}");
      steps[4]!.needs = ["critique", "score", "rating"];
      steps[4]!.with.cases[0].when = "{{ steps.rating.output.value >= 7 && len(steps.score.output) > 0 && input.count < 3 }}";
    });
    expect(findings(ok)).toEqual([]);
  });

  it("reports len() of a bare back-edge lastOutput in the loop head: null in the first pass", () => {
    const document = documentWith((steps) => prompt(steps, 2, "The last draft had {{ len(steps.draft.lastOutput) }} characters."));
    expect(findings(document)).toEqual([
      {
        code: "expression.unguarded_back_edge_read",
        path: "$.steps[2].with.prompt",
        message: expect.stringMatching(/`len\(steps\.draft\.lastOutput\)` always fails in the loop's first pass: len\(\) takes string or array or object, and `steps\.draft\.lastOutput` is null there .*write len\(coalesce\(steps\.draft\.lastOutput, ''\)\)/),
      },
    ]);
    // A comparison with the review's lastOutput there too.
    const compare = documentWith((steps) => prompt(steps, 2, "{{ steps.critique.lastOutput > 3 }}"));
    expect(findings(compare).map((finding) => finding.code)).toEqual(["expression.unguarded_back_edge_read"]);
  });

  it("reports an ordering comparison between a text output and a number, and lower() of an integer", () => {
    const document = documentWith((steps) => {
      steps[4]!.needs = ["critique", "score"];
      steps[4]!.with.cases[0].when = "{{ steps.score.output >= 7 }}";
      prompt(steps, 5, "{{ lower(input.count) }}");
    });
    expect(findings(document)).toEqual([
      { code: "expression.invalid", path: "$.steps[4].with.cases[0].when", message: expect.stringMatching(/`steps\.score\.output >= 7` always fails: >= compares two numbers or two strings, and `steps\.score\.output` is string while `7` is number/) },
      { code: "expression.invalid", path: "$.steps[5].with.prompt", message: expect.stringMatching(/`lower\(input\.count\)` always fails: lower\(\) takes string, and `input\.count` is number/) },
    ]);
  });
});
