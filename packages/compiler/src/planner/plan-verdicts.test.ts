import { describe, expect, it } from "vitest";
import type { LwirFinding } from "@little-stack/lwir";
import { checkPlanOnce } from "./plan-verdicts.js";

const noSteps: LwirFinding = { severity: "error", code: "lwir.no_steps", path: "$.steps", message: "no steps" };

describe("checkPlanOnce", () => {
  it("checks a plan once per target, again for another plan or another target, and always for what is not JSON", () => {
    const seen: unknown[] = [];
    const check = (plan: unknown) => {
      seen.push(plan);
      return (plan as { steps?: unknown[] }).steps?.length === 0 ? [noSteps] : [];
    };
    const plan = { metadata: { name: "verdicts-test" }, steps: [] };
    const target = { workflowId: "verdicts-test", tools: [] };
    const first = checkPlanOnce({ plan, target, check });
    expect(first).toEqual([noSteps]);
    // Equal content (not the same object): the verdict is remembered.
    expect(checkPlanOnce({ plan: structuredClone(plan), target: structuredClone(target), check })).toEqual(first);
    expect(seen).toHaveLength(1);
    checkPlanOnce({ plan, target: { ...target, workflowId: "other" }, check });
    checkPlanOnce({ plan: { ...plan, steps: [{ id: "a" }] }, target, check });
    expect(seen).toHaveLength(3);
    const notJson = { metadata: { name: "verdicts-test" }, steps: [], when: () => true };
    checkPlanOnce({ plan: notJson, target, check });
    checkPlanOnce({ plan: notJson, target, check });
    expect(seen).toHaveLength(5);
  });
});
