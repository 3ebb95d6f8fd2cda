import { describe, expect, it } from "vitest";
import { stepIdProblem } from "./rule-context.js";

describe("stepIdProblem", () => {
  it.each(["summarize", "compute-score", "step_1", "a b", "__proto__", "ÄÖ"])("accepts %j", (id) => {
    expect(stepIdProblem(id)).toBeUndefined();
  });
  it.each([["a.b"], ["a[0]"], ["a]"], ["x@attempt_2"], [""], ["end"], [3], [null], ["a\rb"], ["\u001b]0;x\u0007"], ["tab\there"], ["del\u007f"], ["c1\u009b"]])("rejects %j", (id) => {
    expect(stepIdProblem(id)).toEqual(expect.any(String));
  });
});
