import { LittleWorkflowError, sha256Digest, hmacSha256Digest } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { ExpressionEvaluationError } from "./expression-errors.js";
import { parseExpression } from "./parse-expression.js";
import {
  evaluateExpression,
  evaluateTemplateString,
  isTruthy,
  resolveTemplates,
  type ExpressionContext,
} from "./evaluate-template.js";

const context: ExpressionContext = {
  input: {
    name: "Ada",
    count: 3,
    zero: 0,
    empty: "",
    nothing: null,
    flag: true,
    tags: ["a", "b"],
    nested: { "a key": { deep: [10, 20] }, "fetch-id": "x" },
    when: "2024-01-02T03:04:05Z",
    emoji: "a😀",
  },
  item: { url: "https://example.test", id: 7 },
  steps: {
    fetch: { status: "completed", output: { items: [1, 2, 3], label: "Fetched" } },
    "fetch-data": { status: "completed", output: "dash" },
    loop: { status: "completed", output: { round: 2 }, visits: [{ round: 0 }, { round: 1 }, { round: 2 }] },
    running: { status: "pending", visits: [{ round: 0 }] },
    later: { status: "pending" },
    once: { status: "completed", output: "single" },
    nulled: { status: "completed", output: null },
  },
  step: { id: "current", uses: "ai.generate" },
  workflow: { metadata: { name: "demo" } },
};

function evaluate(source: string, against: ExpressionContext = context): unknown {
  return evaluateExpression(parseExpression(source), against);
}

function failure(source: string, against: ExpressionContext = context): ExpressionEvaluationError {
  try {
    evaluate(source, against);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionEvaluationError);
    return error as ExpressionEvaluationError;
  }
  throw new Error(`expected ${source} to fail`);
}

describe("paths and accessors", () => {
  const cases: [string, unknown][] = [
    ["input", context.input],
    ["input.name", "Ada"],
    ["input.tags[1]", "b"],
    ['input.nested["a key"].deep[0]', 10],
    ["input.nested['fetch-id']", "x"],
    ["input.nested.fetch-id", "x"],
    ["input.nothing", null],
    ["input.tags['0']", "a"],
    ["item.url", "https://example.test"],
    ["step.id", "current"],
    ["workflow.metadata.name", "demo"],
    ["steps.fetch.output.items[2]", 3],
    ["steps.fetch-data.output", "dash"],
    ['steps["fetch"].output.label', "Fetched"],
    ["steps.loop.output", { round: 2 }],
    ["steps.loop.lastOutput", { round: 2 }],
    ["steps.loop.lastOutput.round", 2],
    ["steps.loop.allVisits", [{ round: 0 }, { round: 1 }, { round: 2 }]],
    ["steps.loop.allVisits[0].round", 0],
    ["steps.running.lastOutput", { round: 0 }],
    ["steps.running.allVisits", [{ round: 0 }]],
    ["steps.once.lastOutput", "single"],
    ["steps.once.allVisits", ["single"]],
    ["steps.later.allVisits", []],
    // A loop's first pass reads a later step along a back-edge: no visit yet.
    ["steps.later.lastOutput", null],
    ["coalesce(steps.later.lastOutput, 'none')", "none"],
    ["coalesce(steps.later.lastOutput.feedback, 'none')", "none"],
    ["steps.nulled.output", null],
  ];
  it.each(cases)("%s", (source, expected) => {
    expect(evaluate(source)).toEqual(expected);
  });
});

describe("unresolvable paths name the expression and the missing path", () => {
  const cases: [string, RegExp][] = [
    ["input.missing", /input has no property "missing"/],
    ["input.name.first", /input.name is string, so it has no property "first"/],
    ["input.nothing.x", /input.nothing is null/],
    ["input.tags[5]", /input.tags has 2 items, no index 5/],
    ["input.tags.length", /is an array: it has no property "length"/],
    ["input.toString", /has no property "toString"/],
    ["input.hasOwnProperty", /has no property "hasOwnProperty"/],
    ["steps.unknown.output", /steps.unknown is not a step visible here/],
    ["steps.later.output", /step "later" has not completed/],
    ["steps.later.lastOutput.feedback", /steps.later.lastOutput is null, so it has no property "feedback"/],
    ["steps.running.output", /step "running" has not completed/],
    ["steps.fetch.output.nope", /steps.fetch.output has no property "nope"/],
  ];
  it.each(cases)("%s", (source, problem) => {
    const error = failure(source);
    expect(error.code).toBe("expression.unresolvable");
    expect(LittleWorkflowError.is(error, "expression.unresolvable")).toBe(true);
    expect(error.message).toMatch(problem);
    expect(error.message).toContain(`{{ ${source} }}`);
    expect(error.missingPath).toBe(source);
  });

  it("item is unresolvable outside a parallel body", () => {
    const { item: _item, ...withoutItem } = context;
    expect(failure("item.id", withoutItem).message).toMatch(/only available inside a parallel body/);
  });

  it("step and workflow are unresolvable when the context does not carry them", () => {
    expect(failure("workflow.x", { input: {}, steps: {} }).code).toBe("expression.unresolvable");
    expect(failure("step.x", { input: {}, steps: {} }).code).toBe("expression.unresolvable");
  });

  it("never reads inherited properties, even when Object.prototype is polluted", () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = "yes";
    try {
      expect(failure("input.polluted").code).toBe("expression.unresolvable");
    } finally {
      delete prototype.polluted;
    }
  });

  it("rejects forbidden keys at evaluation time too", () => {
    const own = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(failure('input["__proto__"].x', { input: own, steps: {} }).code).toBe("expression.invalid");
    expect(failure("input.constructor").code).toBe("expression.invalid");
  });

  it("rejects unknown roots, unknown functions and wrong arity if analysis was skipped", () => {
    expect(failure("foo.bar").code).toBe("expression.invalid");
    expect(failure("now(1)").code).toBe("expression.invalid");
    expect(failure("len(1, 2)").message).toMatch(/len\(\) takes exactly 1 argument, got 2/);
    expect(failure("steps.fetch").code).toBe("expression.invalid");
  });
});

describe("operators", () => {
  const cases: [string, unknown][] = [
    ["input.count === 3", true],
    ["input.count === '3'", false],
    ["input.count !== 3", false],
    ["input.count !== '3'", true],
    ["input.count == '3'", true],
    ["input.count != '3'", false],
    ["input.nothing == null", true],
    ["input.tags === input.tags", true],
    ["steps.loop.allVisits[2] === steps.loop.output", true],
    ["steps.fetch.output === steps.loop.output", false],
    ["steps.loop.allVisits[2] == steps.loop.output", true],
    ["input.tags == 'a,b'", false],
    ["input.count > 2", true],
    ["input.count > 3", false],
    ["input.count >= 3", true],
    ["input.count < 3", false],
    ["input.count <= 3", true],
    ["'apple' < 'banana'", true],
    ["input.when >= '2024-01-01'", true],
    ["input.flag && input.count", true],
    ["input.flag && input.zero", false],
    ["input.empty || input.zero", false],
    ["input.empty || input.tags", true],
    ["input.nothing || input.name", true],
    ["input.count > 1 && input.name === 'Ada' || false", true],
    ["false || false && true", false],
    ["true || false && false", true],
  ];
  it.each(cases)("%s → %j", (source, expected) => {
    expect(evaluate(source)).toBe(expected);
  });

  it("&& and || always return booleans", () => {
    expect(evaluate("input.name || input.count")).toBe(true);
    expect(evaluate("input.name && input.count")).toBe(true);
  });

  it("&& and || short-circuit, so the right side may be unresolvable", () => {
    expect(evaluate("true || input.missing.path")).toBe(true);
    expect(evaluate("false && input.missing.path")).toBe(false);
    expect(failure("true && input.missing").code).toBe("expression.unresolvable");
  });

  it.each(["input.count > 'a'", "input.nothing < 1", "input.tags >= 1", "input.flag <= true"])(
    "ordering %s across types is a type error",
    (source) => {
      const error = failure(source);
      expect(error.code).toBe("expression.type_error");
      expect(error.message).toMatch(/compares two numbers or two strings/);
    },
  );
});

describe("functions", () => {
  const cases: [string, unknown][] = [
    ["coalesce(input.nothing, input.name)", "Ada"],
    ["coalesce(input.missing, input.name)", "Ada"],
    ["coalesce(steps.later.output, 'fallback')", "fallback"],
    ["coalesce(steps.later.lastOutput, steps.unknown.output, 1)", 1],
    ["coalesce(input.zero, 5)", 0],
    ["coalesce(input.empty, 'x')", ""],
    ["coalesce(input.nothing, input.missing)", null],
    ["len(input.name)", 3],
    ["len(input.emoji)", 2],
    ["len(input.tags)", 2],
    ["len(input.nested)", 2],
    ["len('')", 0],
    ["lower('MiXeD')", "mixed"],
    ["upper(input.name)", "ADA"],
    ["json(input.nested)", '{"a key":{"deep":[10,20]},"fetch-id":"x"}'],
    ["json('x')", '"x"'],
    ["json(null)", "null"],
    ["date(input.when)", "2024-01-02T03:04:05.000Z"],
    ["date(0)", "1970-01-01T00:00:00.000Z"],
    ["sha256(input.tags)", sha256Digest(["a", "b"])],
    ["sha256('a', 1)", sha256Digest(["a", 1])],
    ["hmac('secret', 'data')", hmacSha256Digest("secret", "data")],
    ["hmac('secret', input.tags)", hmacSha256Digest("secret", '["a","b"]')],
  ];
  it.each(cases)("%s", (source, expected) => {
    expect(evaluate(source)).toEqual(expected);
  });

  it("coalesce is lazy: arguments after the first non-null value are not evaluated", () => {
    expect(evaluate("coalesce(input.name, len(1))")).toBe("Ada");
  });

  it("coalesce does not hide type errors", () => {
    expect(failure("coalesce(len(1), 'x')").code).toBe("expression.type_error");
  });

  const typeErrors: [string, RegExp][] = [
    ["len(1)", /len\(\) needs a string, array or object, got number/],
    ["len(input.nothing)", /got null/],
    ["lower(1)", /lower\(\) needs a string/],
    ["upper(input.tags)", /upper\(\) needs a string, got array/],
    ["date('not a date')", /cannot read "not a date" as a date/],
    ["date(input.tags)", /date\(\) needs a date string or epoch milliseconds/],
    ["hmac('', 'x')", /non-empty string key/],
    ["hmac(1, 'x')", /non-empty string key, got number/],
  ];
  it.each(typeErrors)("%s is a type error", (source, problem) => {
    const error = failure(source);
    expect(error.code).toBe("expression.type_error");
    expect(error.message).toMatch(problem);
    expect(error.message).toContain(source);
  });
});

describe("templates", () => {
  it("a whole-string template returns the typed value", () => {
    expect(evaluateTemplateString("{{ input.count }}", context)).toBe(3);
    expect(evaluateTemplateString("{{ input.nested }}", context)).toEqual(context.input && (context.input as { nested: unknown }).nested);
    expect(evaluateTemplateString("{{ input.nothing }}", context)).toBeNull();
  });

  it("embedded templates are interpolated: strings as is, scalars via String, objects as JSON", () => {
    expect(
      evaluateTemplateString(
        "{{ input.name }}|{{ input.count }}|{{ input.flag }}|{{ input.nothing }}|{{ input.tags }}|{{ steps.loop.output }}",
        context,
      ),
    ).toBe('Ada|3|true|null|["a","b"]|{"round":2}');
  });

  it("returns text without templates unchanged", () => {
    expect(evaluateTemplateString("just { text }", context)).toBe("just { text }");
  });

  it("resolveTemplates resolves deeply and leaves the input untouched", () => {
    const value = {
      prompt: "Summarize {{ input.name }}",
      args: { items: "{{ steps.fetch.output.items }}", keep: 1, list: ["{{ item.id }}", false] },
    };
    const copy = structuredClone(value);
    expect(resolveTemplates(value, context)).toEqual({
      prompt: "Summarize Ada",
      args: { items: [1, 2, 3], keep: 1, list: [7, false] },
    });
    expect(value).toEqual(copy);
  });

  it("keeps a __proto__ key as data instead of changing the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": "{{ input.name }}"}}') as unknown;
    const resolved = resolveTemplates(value, context) as Record<string, unknown>;
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.hasOwn(resolved, "__proto__")).toBe(true);
    expect((resolved as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("errors name the JSONPath of the failing string", () => {
    try {
      resolveTemplates({ with: { args: ["ok", "{{ steps.later.output }}"] } }, context);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ExpressionEvaluationError);
      const evaluationError = error as ExpressionEvaluationError;
      expect(evaluationError.location).toBe("$.with.args[1]");
      expect(evaluationError.message).toContain("$.with.args[1]");
      expect(evaluationError.message).toContain("steps.later.output");
    }
  });

  it("a syntax error met while resolving is reported as expression.invalid with its location", () => {
    try {
      resolveTemplates({ p: "{{ input.a; }}" }, context);
      expect.unreachable();
    } catch (error) {
      expect(LittleWorkflowError.is(error, "expression.invalid")).toBe(true);
      expect((error as Error).message).toContain("$.p");
    }
  });
});

describe("isTruthy", () => {
  it.each([
    [false, false],
    [null, false],
    [0, false],
    ["", false],
    [Number.NaN, false],
    [true, true],
    [1, true],
    ["x", true],
    [[], true],
    [{}, true],
  ])("%j → %j", (value, expected) => {
    expect(isTruthy(value)).toBe(expected);
  });
});
