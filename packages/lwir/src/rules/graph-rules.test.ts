import { describe, expect, it } from "vitest";
import { validateLwir } from "../validate-lwir.js";

type StepSpec = Record<string, unknown>;

function workflow(steps: StepSpec[]): unknown {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "graph.test" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { models: ["m"], tools: ["t"] },
    steps,
  };
}

const tool = (id: string, extra: StepSpec = {}): StepSpec => ({
  id,
  uses: "tool.call",
  with: { tool: "t" },
  output: { mode: "json", schema: { type: "object" } },
  ...extra,
});
const decision = (id: string, extra: StepSpec & { cases: unknown[]; default: string }): StepSpec => {
  const { cases, default: fallback, ...rest } = extra;
  return { id, uses: "decision", with: { cases, default: fallback }, ...rest };
};
const when = (to: string, expression = "steps.work.lastOutput.done === false") => ({ when: `{{ ${expression} }}`, to });

const findingsOf = (doc: unknown) => validateLwir(doc).findings.map(({ code, path }) => ({ code, path }));

describe("graph rules accept", () => {
  it("a loop closed by a decision, every step at maxVisits >= 2, with no terminal step", () => {
    const doc = workflow([
      tool("work", { maxVisits: 3, with: { tool: "t", args: { previous: "{{ coalesce(steps.work.lastOutput, null) }}" } } }),
      decision("check", { needs: ["work"], maxVisits: 3, cases: [when("work")], default: "end" }),
    ]);
    expect(findingsOf(doc)).toEqual([]);
  });

  it("allVisits and lastOutput along a back-edge without needs", () => {
    const doc = workflow([
      tool("draft", { maxVisits: 2, with: { tool: "t", args: { notes: "{{ steps.review.allVisits }}" } } }),
      tool("review", { needs: ["draft"], maxVisits: 2, with: { tool: "t", args: { text: "{{ steps.draft.lastOutput }}" } } }),
      decision("gate", {
        needs: ["review"],
        maxVisits: 2,
        cases: [when("draft", "steps.review.lastOutput.ok === false")],
        default: "end",
      }),
    ]);
    expect(findingsOf(doc)).toEqual([]);
  });

  it("a decision that loops on itself", () => {
    const doc = workflow([
      tool("work"),
      decision("poll", { needs: ["work"], maxVisits: 5, cases: [when("poll", "steps.work.output.ready === false")], default: "end" }),
    ]);
    expect(findingsOf(doc)).toEqual([]);
  });

  it("needing the head of a loop that has needs (a back-edge target, not a forward one)", () => {
    const doc = workflow([
      tool("prepare"),
      tool("work", { needs: ["prepare"], maxVisits: 2 }),
      tool("check", { needs: ["work"], maxVisits: 2 }),
      decision("again", { needs: ["check"], maxVisits: 2, cases: [when("work", "steps.check.lastOutput.ok === false")], default: "end" }),
    ]);
    expect(findingsOf(doc)).toEqual([]);
  });
});

describe("graph rules reject", () => {
  it("reading its own lastOutput when the step is on no cycle", () => {
    const doc = workflow([tool("work", { with: { tool: "t", args: { previous: "{{ steps.work.lastOutput }}" } } })]);
    expect(findingsOf(doc)).toEqual([{ code: "step.undeclared_dependency", path: "$.steps[0].with.args.previous" }]);
  });

  it("a cycle whose decision stays at maxVisits 1", () => {
    const doc = workflow([
      tool("work", { maxVisits: 3 }),
      decision("check", { needs: ["work"], cases: [when("work")], default: "end" }),
    ]);
    expect(findingsOf(doc)).toEqual([{ code: "lwir.invalid_cycle", path: "$.steps[0]" }]);
  });

  it("a needs-only cycle inside a component that also holds a decision", () => {
    const doc = workflow([
      tool("a", { needs: ["b"], maxVisits: 2 }),
      tool("b", { needs: ["a"], maxVisits: 2 }),
      decision("d", { needs: ["a"], maxVisits: 2, cases: [when("a", "steps.a.lastOutput.ok")], default: "end" }),
    ]);
    const findings = validateLwir(doc).findings;
    expect(findings.map(({ code, path }) => ({ code, path }))).toEqual([{ code: "lwir.invalid_cycle", path: "$.steps[0]" }]);
    expect(findings[0]?.message).toContain("needs alone");
  });

  it("each broken cycle once, at its first step", () => {
    const doc = workflow([
      tool("a", { needs: ["b"] }),
      tool("b", { needs: ["a"] }),
      tool("c", { needs: ["d"] }),
      tool("d", { needs: ["c"] }),
    ]);
    expect(findingsOf(doc)).toEqual([
      { code: "lwir.invalid_cycle", path: "$.steps[0]" },
      { code: "lwir.invalid_cycle", path: "$.steps[2]" },
    ]);
  });

  it("several unknown or undeclared steps in one string as one finding per rule", () => {
    const doc = workflow([
      tool("a"),
      tool("b"),
      tool("c", { needs: ["a", "b"], with: { tool: "t", args: { x: "{{ steps.x.output }} {{ steps.y.output }} {{ steps.c.allVisits }}" } } }),
    ]);
    const findings = validateLwir(doc).findings;
    expect(findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "step.missing_dependency", path: "$.steps[2].with.args.x" },
      { code: "step.undeclared_dependency", path: "$.steps[2].with.args.x" },
    ]);
    expect(findings[0]?.message).toContain('"x", "y"');
  });

  it("a referenced json output without a schema once, however many readers", () => {
    const doc = workflow([
      tool("source", { output: { mode: "json" } }),
      tool("one", { needs: ["source"], input: "{{ steps.source.output }}" }),
      tool("two", { needs: ["source", "one"], input: ["{{ steps.source.output }}", "{{ steps.one.output }}"] }),
    ]);
    expect(findingsOf(doc)).toEqual([{ code: "output.missing_schema", path: "$.steps[0].output.schema" }]);
  });

  it("a json output without a schema is fine while nobody reads it", () => {
    expect(findingsOf(workflow([tool("only", { output: { mode: "json" } })]))).toEqual([]);
  });
});
