import { validateLwir } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { outputCandidates } from "./output-candidates.js";
import { terminalOutputFindings } from "./terminal-output-binding.js";

const text = { mode: "text" };
const ai = (id: string, extra: Record<string, unknown> = {}) => ({ id, uses: "ai.generate", with: { model: "m", prompt: "p" }, output: text, ...extra });
const decide = (id: string, needs: string[], targets: string[], extra: Record<string, unknown> = {}) => ({
  id,
  uses: "decision",
  needs,
  with: { cases: targets.slice(0, -1).map((to) => ({ when: "{{ true }}", to })), default: targets.at(-1) },
  ...extra,
});
const ids = (steps: unknown[]) => outputCandidates(steps).map((entry) => entry.step.id);

describe("outputCandidates: the steps whose output can become the list's output", () => {
  it("a chain: only its last step", () => {
    expect(ids([ai("a"), ai("b", { needs: ["a"] }), ai("c", { needs: ["b"] })])).toEqual(["c"]);
  });

  it("a router: the routed branches' ends, not the step before the decision (its targets always run after it)", () => {
    expect(ids([ai("classify"), decide("route", ["classify"], ["billing", "other"]), ai("billing"), ai("other")])).toEqual(["billing", "other"]);
    // Branches of several steps end in their last step.
    expect(ids([ai("classify"), decide("route", ["classify"], ["a1", "b1"]), ai("a1"), ai("a2", { needs: ["a1"] }), ai("b1"), ai("b2", { needs: ["b1"] })])).toEqual(["a2", "b2"]);
  });

  it("a step every routed branch needs is replaced by the branch that runs", () => {
    const steps = [ai("customer"), ai("classify"), decide("route", ["classify"], ["a", "b"]), ai("a", { needs: ["customer"] }), ai("b", { needs: ["customer"] })];
    expect(ids(steps)).toEqual(["a", "b"]);
  });

  it("a review loop: the step after the loop, not the review the decision reads (the back-edge comes back to it)", () => {
    const loop = [
      ai("draft", { maxVisits: 3 }),
      ai("review", { needs: ["draft"], maxVisits: 3 }),
      decide("again", ["review"], ["draft", "publish"], { maxVisits: 3 }),
      ai("publish", { needs: ["draft"] }),
    ];
    expect(ids(loop)).toEqual(["publish"]);
  });

  it("a loop whose decision has one way out: the steps that way out needs are replaced by it", () => {
    const steps = [
      ai("count", { maxVisits: 5 }),
      ai("bumped", { needs: ["count"], maxVisits: 5 }),
      decide("more", ["count"], ["count", "report"], { maxVisits: 5 }),
      ai("report", { needs: ["bumped", "count"] }),
    ];
    expect(ids(steps)).toEqual(["report"]);
  });

  it('"end" before the terminal step: the step the decision read can be the output', () => {
    const steps = [ai("classify"), decide("gate", ["classify"], ["end", "reply"]), ai("reply"), ai("sign", { needs: ["reply"] })];
    expect(ids(steps)).toEqual(["classify", "sign"]);
  });

  it("a loop that ends at \"end\": the last step before the decision", () => {
    expect(ids([ai("draft", { maxVisits: 2 }), ai("review", { needs: ["draft"], maxVisits: 2 }), decide("again", ["review"], ["draft", "end"], { maxVisits: 2 })])).toEqual(["review"]);
  });

  it("a target listed before its decision does not replace the decision's input (the runtime takes the last in list order)", () => {
    expect(ids([ai("reply"), ai("classify"), decide("route", ["classify"], ["reply", "other"]), ai("other")])).toEqual(["reply", "classify", "other"]);
  });

  it("a follower that can be dropped (it also needs a routed target) does not replace the step it needs", () => {
    const steps = [ai("a"), decide("route", ["a"], ["x", "end"]), ai("x"), ai("join", { needs: ["a", "x"] })];
    expect(ids(steps)).toEqual(["a", "join"]);
  });
});

describe("terminalOutputFindings", () => {
  const outputSchema = { type: "object", required: ["reply"], properties: { reply: { type: "string" } } };
  const object = { mode: "object", schema: outputSchema };
  const document = (steps: unknown[]) => ({
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "w" },
    input: { schema: { type: "object" } },
    output: { schema: outputSchema },
    permissions: { models: ["m"], tools: [] },
    steps,
  });

  it("accepts a router whose decision reads a choice and whose every branch gives the output", () => {
    const lwir = document([
      ai("classify", { output: { mode: "choice", values: ["a", "b"] } }),
      decide("route", ["classify"], ["first", "second"]),
      ai("first", { output: object }),
      ai("second", { output: object }),
    ]);
    expect(validateLwir(lwir).findings).toEqual([]);
    expect(terminalOutputFindings(lwir, outputSchema)).toEqual([]);
  });

  it('reports the step a decision reads when it can choose "end" before the terminal step', () => {
    const lwir = document([
      ai("classify", { output: { mode: "choice", values: ["spam", "ham"] } }),
      decide("gate", ["classify"], ["end", "reply"]),
      ai("reply"),
      ai("sign", { needs: ["reply"], output: object }),
    ]);
    expect(validateLwir(lwir).findings).toEqual([]);
    expect(terminalOutputFindings(lwir, outputSchema)).toEqual([
      expect.objectContaining({ code: "binding.terminal_output_mismatch", path: "$.steps[0].output", message: expect.stringMatching(/Step "classify" produces the run's output/) }),
    ]);
  });
});
