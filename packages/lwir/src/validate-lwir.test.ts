import { describe, expect, it } from "vitest";
import { loadFixture } from "./__fixtures__/load-fixture.js";
import { checkDocumentRules } from "./rules/document-rules.js";
import { checkStepRules } from "./rules/step-rules.js";
import { validateLwir, validateWithRuleFamilies } from "./validate-lwir.js";

describe("validateWithRuleFamilies", () => {
  it("turns a crashing rule family into lwir.internal_error and keeps the other families' findings", () => {
    const doc = loadFixture("support-summarize-ticket");
    doc.kind = "Pipeline";
    doc.steps[0].sensitive = "yes";
    const result = validateWithRuleFamilies({
      doc,
      families: [
        ["document", checkDocumentRules],
        [
          "exploding",
          () => {
            throw new TypeError("cannot read properties of undefined");
          },
        ],
        [
          "hostile",
          () => {
            // A thrown value whose conversion to text throws too.
            throw {
              toString() {
                throw new Error("again");
              },
            };
          },
        ],
        ["steps", checkStepRules],
      ],
    });
    expect(result.valid).toBe(false);
    expect(result.findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "schema.invalid", path: "$.kind" },
      { code: "lwir.internal_error", path: "$" },
      { code: "step.sensitive_must_be_boolean", path: "$.steps[0].sensitive" },
    ]);
    expect(result.findings[1]?.message).toContain("exploding rules could not finish (cannot read properties of undefined)");
  });

  it("is what validateLwir runs", () => {
    const doc = loadFixture("review-candidates");
    doc.steps[3].maxVisits = 0;
    expect(validateLwir(doc).findings.map((finding) => finding.code)).toEqual(["step.max_visits_out_of_range"]);
  });
});

describe("permissions as allowlists", () => {
  it("allow nothing when absent", () => {
    const doc = loadFixture("compute-score");
    delete doc.permissions;
    expect(validateLwir(doc).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "fixer.model.disallowed", path: "$.steps[0].onFailure.fixer.model" },
    ]);
  });

  it("are not applied when malformed: the permissions finding is the one to fix", () => {
    const doc = loadFixture("review-candidates");
    doc.permissions.models = "gpt-4o-mini";
    expect(validateLwir(doc).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "schema.invalid", path: "$.permissions.models" },
    ]);
  });
});
