import { LWIR_FIELDS, LWIR_STEP_TYPES, type LwirStepType } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { lwirCard } from "./lwir-card.js";

/** The fields each step type's card line must spell out, straight from the validator's field lists. */
const shapeFields: Record<LwirStepType, readonly string[]> = {
  "ai.generate": ["id", "uses", "with", "output", ...LWIR_FIELDS.aiGenerateWith],
  "tool.call": ["id", "uses", "with", "output", ...LWIR_FIELDS.toolCallWith],
  "code.run": ["id", "uses", "with", "output", ...LWIR_FIELDS.codeRunWith, ...LWIR_FIELDS.codeRunFile, ...LWIR_FIELDS.codeRunSandbox, ...LWIR_FIELDS.onFailure, ...LWIR_FIELDS.fixer],
  decision: ["id", "uses", "needs", "with", ...LWIR_FIELDS.decisionWith, ...LWIR_FIELDS.decisionCase],
  // The fan-in entry fields the validator requires in a parallel step's output schema.
  parallel: ["id", "uses", "with", "steps", "output", ...LWIR_FIELDS.parallelWith, ...LWIR_FIELDS.parallelFanIn, "itemKey", "status", "artifacts", "outputRef", "error"],
};

function cardLine(prefix: string): string {
  const line = lwirCard.split("\n").find((candidate) => candidate.startsWith(`${prefix}:`));
  if (line === undefined) throw new Error(`the card has no line starting with "${prefix}:"`);
  return line;
}

describe("lwirCard", () => {
  it("points the planner to the skill", () => {
    expect(lwirCard).toContain("cat .agents/skills/lwir/SKILL.md");
  });

  it.each([...LWIR_STEP_TYPES])("gives the complete shape of %s on its own line", (type) => {
    const line = cardLine(type);
    expect(line).toContain(`"uses": "${type}"`);
    const missing = shapeFields[type].filter((field) => !line.includes(`"${field}"`));
    expect(missing).toEqual([]);
  });

  it("names every common step field, document field and output mode", () => {
    const missing = [
      ...LWIR_FIELDS.step.filter((field) => field !== "onFailure" && field !== "steps").filter((field) => !cardLine("Every step").includes(`"${field}"`)),
      ...LWIR_FIELDS.retry.filter((field) => !cardLine("Every step").includes(`"${field}"`)),
      ...LWIR_FIELDS.document.filter((field) => !cardLine("Document").includes(`"${field}"`)),
      ...["text", "object", "array", "choice", "json"].filter((mode) => !cardLine("Output modes").includes(`"mode": "${mode}"`)),
    ];
    expect(missing).toEqual([]);
  });

  it("stays a card: short enough for every planner prompt", () => {
    expect(lwirCard.length).toBeLessThan(5_000);
    expect(lwirCard.split("\n").length).toBeLessThanOrEqual(14);
  });
});
