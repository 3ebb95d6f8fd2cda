import { expectTypeOf, test } from "vitest";
import type { LwirFindingCode } from "./findings.js";
import type { LwirOutputMode } from "./schema/output-mode.js";
import type { LwirDocument, LwirFinding, LwirStep, ValidationResult } from "./types.js";

test("steps are discriminated by uses", () => {
  const narrow = (step: LwirStep): string => {
    switch (step.uses) {
      case "ai.generate":
        return step.with.prompt;
      case "tool.call":
        return step.with.tool;
      case "code.run":
        return step.with.files[step.with.entrypoint]?.sha256 ?? "";
      case "decision":
        return step.with.default;
      case "parallel":
        return step.steps.map((bodyStep) => bodyStep.id).join(",") + step.with.fanIn.order;
    }
  };
  expectTypeOf(narrow).returns.toEqualTypeOf<string>();
  expectTypeOf<Extract<LwirStep, { uses: "parallel" }>["steps"][number]["uses"]>().toEqualTypeOf<
    "ai.generate" | "tool.call" | "code.run" | "decision"
  >();
  expectTypeOf<Extract<LwirStep, { uses: "ai.generate" }>["output"]>().toEqualTypeOf<LwirOutputMode>();
});

test("a valid result has no findings", () => {
  expectTypeOf<Extract<ValidationResult, { valid: true }>["findings"]>().toEqualTypeOf<readonly []>();
  expectTypeOf<Extract<ValidationResult, { valid: false }>["findings"]>().toEqualTypeOf<readonly LwirFinding<LwirFindingCode>[]>();
  // validateLwir's finding codes are a union, so a switch over them is checked.
  expectTypeOf<Extract<ValidationResult, { valid: false }>["findings"][number]["code"]>().toEqualTypeOf<LwirFindingCode>();
  expectTypeOf<LwirDocument["apiVersion"]>().toEqualTypeOf<"littleworkflow.dev/v0.1">();
});
