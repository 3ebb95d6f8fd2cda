import { describe, expect, it } from "vitest";
import { findJsonProblem } from "./json-value.js";

describe("findJsonProblem", () => {
  it("accepts plain JSON", () => {
    expect(findJsonProblem({ a: [1, "x", null, true, { b: 2.5 }] })).toBeUndefined();
  });

  it("points at the first non-JSON value", () => {
    expect(findJsonProblem({ a: [1, undefined] })).toMatchObject({ path: "$.a[1]" });
    expect(findJsonProblem({ "odd key": Number.NaN })).toMatchObject({ path: '$["odd key"]', problem: "NaN is not a finite number" });
    expect(findJsonProblem({ when: new Date(0) })).toMatchObject({ path: "$.when", problem: "a Date is not plain JSON" });
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(findJsonProblem(cyclic)).toMatchObject({ path: "$.self", problem: "a circular reference is not JSON" });
    expect(findJsonProblem(10n)).toMatchObject({ problem: "a bigint is not JSON" });
  });
});
