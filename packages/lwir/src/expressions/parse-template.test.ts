import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { ExpressionSyntaxError } from "./expression-errors.js";
import { parseExpression } from "./parse-expression.js";
import { parseTemplateString } from "./parse-template.js";

describe("parseTemplateString: shapes", () => {
  it("returns a literal for text without braces (single braces are plain text)", () => {
    expect(parseTemplateString('plain {"a": 1} text')).toEqual({ kind: "literal", text: 'plain {"a": 1} text' });
  });

  it("returns a whole template when the string is exactly one template", () => {
    const parsed = parseTemplateString("{{ input.ticketId }}");
    expect(parsed).toMatchObject({ kind: "whole", expression: { kind: "path", root: "input", segments: ["ticketId"] } });
  });

  it("treats surrounding whitespace as text, so the result is interpolated", () => {
    expect(parseTemplateString(" {{ input.a }}").kind).toBe("interpolated");
  });

  it("splits embedded templates into text and expressions", () => {
    const parsed = parseTemplateString("Ticket {{ input.id }}:\n{{input.body}}!");
    expect(parsed.kind).toBe("interpolated");
    if (parsed.kind !== "interpolated") return;
    expect(parsed.parts.map((part) => (typeof part === "string" ? part : part.source))).toEqual([
      "Ticket ",
      "input.id",
      ":\n",
      "input.body",
      "!",
    ]);
  });

  it("keeps `}}` inside a string literal as part of the literal", () => {
    expect(parseTemplateString("{{ 'a }} b' }}")).toMatchObject({
      kind: "whole",
      expression: { kind: "literal", value: "a }} b" },
    });
  });
});

describe("parseExpression: operands", () => {
  const cases: [string, unknown][] = [
    ["'single'", { kind: "literal", value: "single" }],
    ['"double"', { kind: "literal", value: "double" }],
    ['"esc\\"aped\\n\\u0041"', { kind: "literal", value: 'esc"aped\nA' }],
    ["42", { kind: "literal", value: 42 }],
    ["-1.5e2", { kind: "literal", value: -150 }],
    ["0", { kind: "literal", value: 0 }],
    ["true", { kind: "literal", value: true }],
    ["false", { kind: "literal", value: false }],
    ["null", { kind: "literal", value: null }],
    ["input", { kind: "path", root: "input", segments: [] }],
    ["input.a.b", { kind: "path", root: "input", segments: ["a", "b"] }],
    ["steps.fetch-data.output", { kind: "path", root: "steps", segments: ["fetch-data", "output"] }],
    ["input.items[2]", { kind: "path", root: "input", segments: ["items", 2] }],
    ['input["a key"]', { kind: "path", root: "input", segments: ["a key"] }],
    ["input['x'].y", { kind: "path", root: "input", segments: ["x", "y"] }],
    ["item.id", { kind: "path", root: "item", segments: ["id"] }],
    ["workflow.metadata.name", { kind: "path", root: "workflow", segments: ["metadata", "name"] }],
    ["step.id", { kind: "path", root: "step", segments: ["id"] }],
    ["len(input.list)", { kind: "call", callee: "len", arguments: [{ kind: "path", segments: ["list"] }] }],
    ["coalesce(input.a, 'x', 1)", { kind: "call", callee: "coalesce" }],
    ["upper()", { kind: "call", callee: "upper", arguments: [] }],
  ];
  it.each(cases)("%s", (source, expected) => {
    expect(parseExpression(source)).toMatchObject(expected as object);
  });
});

describe("parseExpression: precedence", () => {
  it("binds && tighter than ||", () => {
    const parsed = parseExpression("input.a || input.b && input.c");
    expect(parsed).toMatchObject({
      kind: "logical",
      operator: "||",
      left: { kind: "path", segments: ["a"] },
      right: { kind: "logical", operator: "&&" },
    });
  });

  it("binds a comparison tighter than &&", () => {
    expect(parseExpression("input.a === 1 && input.b != 'x'")).toMatchObject({
      kind: "logical",
      operator: "&&",
      left: { kind: "comparison", operator: "===" },
      right: { kind: "comparison", operator: "!=" },
    });
  });

  it.each(["===", "!==", "==", "!=", ">=", "<=", ">", "<"])("parses the %s comparison", (operator) => {
    expect(parseExpression(`input.a ${operator} 3`)).toMatchObject({ kind: "comparison", operator });
  });

  it("records the source text of every node", () => {
    const parsed = parseExpression("len(input.x) > 2");
    expect(parsed.source).toBe("len(input.x) > 2");
    if (parsed.kind === "comparison") expect(parsed.left.source).toBe("len(input.x)");
  });
});

describe("parseTemplateString: syntax errors name the problem and the column", () => {
  const cases: [string, RegExp, number][] = [
    ["{{ input.a; }}", /`;` is not allowed/, 11],
    ["{{ `x` }}", /backticks are not allowed/, 4],
    ["{{ x => 1 }}", /`=>` is not allowed/, 6],
    ["{{ input.a = 1 }}", /`=` is not allowed/, 12],
    ["{{ !input.a }}", /`!` is not supported/, 4],
    ["{{ input.a + 1 }}", /arithmetic/, 12],
    ["{{ input.a ? 1 : 2 }}", /ternary/, 12],
    ["{{ input?.a }}", /`\?\.` is not supported/, 9],
    ["{{ (input.a) }}", /parentheses are not supported/, 4],
    ["{{ input.a === 1 === 2 }}", /only one comparison/, 18],
    ["{{ input.name.trim() }}", /method calls are not allowed/, 19],
    ["{{ await input.a }}", /`await` is not allowed/, 4],
    ["{{ new Date() }}", /`new` is not allowed/, 4],
    ["{{ function() }}", /`function` is not allowed/, 4],
    ["{{ import('fs') }}", /`import` is not allowed/, 4],
    ["{{ require('fs') }}", /`require` is not allowed/, 4],
    ["{{ process.env }}", /`process` is not allowed/, 4],
    ["{{ global.x }}", /`global` is not allowed/, 4],
    ["{{ globalThis.x }}", /`globalThis` is not allowed/, 4],
    ["{{ eval('1') }}", /`eval` is not allowed/, 4],
    ["{{ }}", /empty expression/, 4],
    ["{{ input.a", /never closed/, 1],
    ["text }} more", /unbalanced `}}`/, 6],
    ["{{ {{ input.a }} }}", /cannot be nested/, 4],
    ["{{ 'open }}", /unterminated string/, 4],
    ["{{ input. }}", /property name after `.`/, 11],
    ["{{ input[-1] }}", /index \[digits\]/, 10],
    ["{{ input[1.5] }}", /index \[digits\]/, 10],
    ["{{ input[input.i] }}", /index \[digits\]/, 10],
    ["{{ input['a' }}", /expected `\]`/, 14],
    ["{{ len(input.a,) }}", /trailing `,`/, 16],
    ["{{ len(input.a }}", /expected `,` or `\)`/, 16],
    ["{{ len(input.a).x }}", /property of a function result/, 16],
    ["{{ input.a input.b }}", /unexpected `input`/, 12],
    ["{{ 012 }}", /invalid number/, 4],
    ["{{ input.a } }}", /single `}`/, 12],
  ];
  it.each(cases)("%s", (text, problem, column) => {
    let caught: unknown;
    try {
      parseTemplateString(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ExpressionSyntaxError);
    const error = caught as ExpressionSyntaxError;
    expect(error.code).toBe("expression.invalid");
    expect(LittleWorkflowError.is(error, "expression.invalid")).toBe(true);
    expect(error.problem).toMatch(problem);
    expect(error.column).toBe(column);
    expect(error.message).toContain(`column ${column}`);
  });

  it("reports line and column in multi-line text", () => {
    try {
      parseTemplateString("line one\nline {{ input.a; }}");
      expect.unreachable();
    } catch (error) {
      expect((error as ExpressionSyntaxError).line).toBe(2);
      expect((error as ExpressionSyntaxError).column).toBe(16);
      expect((error as Error).message).toContain("line 2, column 16");
    }
  });
});

describe("parseTemplateString: size bounds", () => {
  it("rejects calls nested deeper than 32 with a syntax error, not a stack overflow", () => {
    const text = `{{ ${"len(".repeat(100_000)}input${")".repeat(100_000)} }}`;
    expect(() => parseTemplateString(text)).toThrow(/nest more than 32 deep/);
  });

  it("rejects conditions with more than 256 && / || operands", () => {
    const text = `{{ ${"input.a && ".repeat(100_000)}input.b }}`;
    expect(() => parseTemplateString(text)).toThrow(/too many && \/ \|\| operands/);
  });

  it("accepts 32 nested calls", () => {
    expect(() => parseTemplateString(`{{ ${"lower(".repeat(32)}input${")".repeat(32)} }}`)).not.toThrow();
  });
});
