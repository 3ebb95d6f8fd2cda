import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { assertValidLwir } from "./assert-valid-lwir.js";
import { LwirValidationError } from "./lwir-validation-error.js";
import { fixtureNames, loadFixture } from "./__fixtures__/load-fixture.js";
import { validateLwir } from "./validate-lwir.js";

describe("the seed examples", () => {
  it.each(fixtureNames)("%s validates", (name) => {
    expect(validateLwir(loadFixture(name))).toEqual({ valid: true, findings: [] });
    expect(() => assertValidLwir(loadFixture(name))).not.toThrow();
  });
});

describe("assertValidLwir", () => {
  it("throws LwirValidationError carrying every finding, with a message naming where and what", () => {
    const doc = loadFixture("support-summarize-ticket");
    doc.kind = "Pipeline";
    doc.steps[0].with.model = "gpt-5";
    let caught: unknown;
    try {
      assertValidLwir(doc);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LwirValidationError);
    expect(LittleWorkflowError.is(caught, "lwir.invalid")).toBe(true);
    const error = caught as LwirValidationError;
    expect(error.findings).toEqual(validateLwir(doc).findings);
    expect(error.findings.map((finding) => finding.code)).toEqual(["schema.invalid", "model.disallowed"]);
    expect(error.message).toContain("$.kind");
    expect(error.message).toContain("$.steps[0].with.model  model.disallowed");
    expect(error.details.findings).toBe(error.findings);
  });

  it("lists at most five findings in the message and counts the rest", () => {
    const error = new LwirValidationError(
      Array.from({ length: 8 }, (_, index) => ({
        severity: "error" as const,
        code: "step.invalid",
        path: `$.steps[${index}]`,
        message: "A step must be an object.",
      })),
    );
    expect(error.message).toContain("8 findings");
    expect(error.message).toContain("$.steps[4]");
    expect(error.message).not.toContain("$.steps[5]");
    expect(error.message).toContain("and 3 more");
  });

  it("narrows the type of a valid document", () => {
    const doc: unknown = loadFixture("compute-score");
    assertValidLwir(doc);
    expect(doc.steps[0]?.uses).toBe("code.run");
  });
});
