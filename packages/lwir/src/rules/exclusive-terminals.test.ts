import { describe, expect, it } from "vitest";
import { validateLwir } from "../validate-lwir.js";

const text = { mode: "text" };
const generate = (id: string, needs: string[], extra: Record<string, unknown> = {}) => ({ id, uses: "ai.generate", needs, with: { model: "m", prompt: `Step ${id}` }, output: text, ...extra });

function router(mutate: (steps: Record<string, any>[]) => void = () => {}) {
  const steps: Record<string, any>[] = [
    { id: "classify", uses: "ai.generate", with: { model: "m", prompt: "Classify {{ input.email }}" }, output: { mode: "choice", values: ["billing", "tech"] } },
    { id: "route", uses: "decision", needs: ["classify"], with: { cases: [{ when: "{{ steps.classify.output == 'billing' }}", to: "billing" }], default: "tech" } },
    generate("billing", []),
    generate("billingReply", ["billing"]),
    generate("tech", []),
    generate("techDraft", ["tech"]),
    generate("techReply", ["techDraft"]),
  ];
  mutate(steps);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "mail.route" },
    input: { schema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] } },
    output: { schema: { type: "string" } },
    permissions: { models: ["m"], tools: [] },
    steps,
  };
}

const codes = (document: unknown) => validateLwir(document).findings.map((finding) => finding.code);

describe("terminals of different branches of one decision", () => {
  it("are not ambiguous: exactly one branch runs", () => {
    expect(validateLwir(router())).toEqual({ valid: true, findings: [] });
  });

  it("two terminals in the same branch are", () => {
    expect(codes(router((steps) => steps.push(generate("techAudit", ["techDraft"]))))).toEqual(["terminal.ambiguous"]);
  });

  it("a terminal outside the branches is", () => {
    expect(codes(router((steps) => steps.push(generate("log", ["classify"]))))).toEqual(["terminal.ambiguous"]);
  });

  it("a branch step another decision can also route to is not exclusive", () => {
    const document = router((steps) => {
      steps.push({ id: "again", uses: "decision", needs: ["classify"], with: { cases: [], default: "billing" } });
    });
    expect(codes(document)).toEqual(["terminal.ambiguous"]);
  });

  it("a decision on a loop can choose each branch in turn, so its branches are not exclusive", () => {
    const document = router((steps) => {
      steps[0]!.maxVisits = 2;
      steps[1]!.maxVisits = 2;
      steps[1]!.needs = ["classify"];
      steps[1]!.with.cases.push({ when: "{{ len(steps.classify.allVisits) < 2 }}", to: "classify" });
      steps[1]!.with.cases[0].when = "{{ steps.classify.lastOutput == 'billing' }}";
    });
    expect(codes(document)).toContain("terminal.ambiguous");
  });
});
