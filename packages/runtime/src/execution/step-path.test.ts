import { describe, expect, it } from "vitest";
import { parseTimeout } from "./parse-timeout.js";
import { branchPathFor, encodeItemKey, stepPathFor } from "./step-path.js";

describe("step paths (lwir.md §7)", () => {
  it("names top-level, multi-visit and branch steps", () => {
    expect(stepPathFor({ prefix: "", stepId: "fetch", maxVisits: 1, visitIndex: 0 })).toBe("fetch");
    expect(stepPathFor({ prefix: "", stepId: "draft", maxVisits: 3, visitIndex: 2 })).toBe("draft.visit[2]");
    expect(stepPathFor({ prefix: branchPathFor("review", "cand.1"), stepId: "score", maxVisits: 1, visitIndex: 0 })).toBe("review[cand%2E1].score");
  });

  it("encodes item keys so that . [ ] / and spaces cannot break the path", () => {
    expect(encodeItemKey("a.b")).toBe("a%2Eb");
    expect(encodeItemKey("x[0]/y z")).toBe("x%5B0%5D%2Fy%20z");
  });
});

describe("parseTimeout", () => {
  it("reads durations and milliseconds", () => {
    expect(parseTimeout("30m")).toBe(1_800_000);
    expect(parseTimeout("90s")).toBe(90_000);
    expect(parseTimeout("250ms")).toBe(250);
    expect(parseTimeout("1.5h")).toBe(5_400_000);
    expect(parseTimeout(1_000)).toBe(1_000);
  });

  it("rejects anything else with a named error", () => {
    for (const bad of ["", "soon", "10", "-5s", 0, -1, Number.NaN]) {
      expect(() => parseTimeout(bad as string | number)).toThrow(expect.objectContaining({ code: "runtime.invalid_run_options" }) as Error);
    }
  });
});
