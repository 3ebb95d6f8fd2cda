import { describe, expect, it } from "vitest";
import { analyzeTemplateString } from "./analyze-template.js";
import { evaluateExpression } from "./evaluate-template.js";
import { ExpressionEvaluationError, ExpressionSyntaxError } from "./expression-errors.js";
import { parseTemplateString } from "./parse-template.js";
import { seededRandom } from "../__fixtures__/seeded-random.js";


const fragments = [
  "{{", "}}", "{", "}", " ", "input", "item", "steps", "step", "workflow", ".", "[", "]", "(", ")", ",", "'", '"', "\\",
  "0", "12", "-3", "1.5e3", "true", "null", "===", "==", "!=", ">=", "<", "&&", "||", "!", ";", "`", "=>", "=",
  "coalesce", "len", "sha256", "hmac", "date", "json", "lower", "__proto__", "constructor", "await", "new", "a-b",
  "output", "lastOutput", "allVisits", "é", "😀", "\n", "\u0000", "\ud800",
];

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** A grammar-guided operand, so many generated templates parse and reach the evaluator. */
function randomOperand(next: () => number, depth: number): string {
  const choice = next();
  if (choice < 0.2) return pick(next, ["'s'", '"t"', "0", "-2.5", "true", "false", "null"]);
  if (choice < 0.45 && depth < 3) {
    const name = pick(next, ["coalesce", "len", "lower", "upper", "json", "date", "sha256", "hmac", "nope"]);
    const count = Math.floor(next() * 3);
    return `${name}(${Array.from({ length: count }, () => randomOperand(next, depth + 1)).join(", ")})`;
  }
  const root = pick(next, ["input", "item", "steps", "step", "workflow", "foo"]);
  const segments = Array.from({ length: Math.floor(next() * 4) }, () =>
    pick(next, [".a", ".output", ".lastOutput", ".allVisits", "[0]", "[2]", '["a-b"]', ".b", ".__proto__"]),
  );
  return root + segments.join("");
}

function randomExpression(next: () => number): string {
  let text = randomOperand(next, 0);
  while (next() < 0.4) text += ` ${pick(next, ["===", "!==", "==", "!=", ">=", "<=", ">", "<", "&&", "||"])} ${randomOperand(next, 0)}`;
  return text;
}

function randomTemplate(next: () => number): string {
  if (next() < 0.5) {
    let text = `{{ ${randomExpression(next)} }}`;
    if (next() < 0.3) {
      const at = Math.floor(next() * text.length);
      text = text.slice(0, at) + pick(next, fragments) + text.slice(at);
    }
    return next() < 0.3 ? `before ${text} after` : text;
  }
  const length = Math.floor(next() * 24);
  let text = "";
  for (let index = 0; index < length; index += 1) text += pick(next, fragments);
  return next() < 0.5 ? `{{ ${text} }}` : text;
}

describe("expression fuzzing (seeded)", () => {
  it("parse throws only ExpressionSyntaxError, analysis never throws and agrees with evaluation", () => {
    const next = seededRandom(20_261_129);
    const context = {
      input: { a: [1, "x", { b: null }], "a-b": 2 },
      item: "i",
      steps: { output: { status: "completed" as const, output: { lastOutput: 1 } } },
      step: {},
      workflow: {},
    };
    let evaluated = 0;
    for (let run = 0; run < 20_000; run += 1) {
      const text = randomTemplate(next);
      const analysis = analyzeTemplateString(text, { insideParallelBody: true });
      expect(Array.isArray(analysis.problems)).toBe(true);
      let result;
      try {
        result = parseTemplateString(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ExpressionSyntaxError);
        expect(analysis.problems.length).toBeGreaterThan(0);
        continue;
      }
      const expressions = result.kind === "whole" ? [result.expression] : result.kind === "interpolated" ? result.parts.filter((part) => typeof part !== "string") : [];
      for (const expression of expressions) {
        evaluated += 1;
        try {
          evaluateExpression(expression, context);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionEvaluationError);
          // What analysis accepts, evaluation never calls invalid (only unresolvable or a type error).
          if (analysis.problems.length === 0) expect((error as ExpressionEvaluationError).code).not.toBe("expression.invalid");
        }
      }
    }
    // The generator must reach the evaluator often enough for the test to mean something.
    expect(evaluated).toBeGreaterThan(5_000);
  });
});
