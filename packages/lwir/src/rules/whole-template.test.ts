import { describe, expect, it } from "vitest";
import { isWholeTemplate, referencesRoot, wholeTemplate } from "./whole-template.js";

describe("isWholeTemplate", () => {
  it.each(["{{ input.items }}", "{{item.id}}", "{{ steps.a.output === 'x' }}", "{{ '}}' }}", "{{ a ; b }}", "{{ }}"])("accepts %s", (text) => {
    expect(isWholeTemplate(text)).toBe(true);
  });
  it.each([
    "input.items",
    " {{ input.items }}",
    "{{ input.items }} ",
    "x {{ input.items }}",
    "{{ a }}{{ b }}",
    "{{ a }} {{ b }}",
    "x }}",
    "",
    5,
    null,
  ])("rejects %j", (text) => {
    expect(isWholeTemplate(text)).toBe(false);
  });
});

describe("wholeTemplate", () => {
  it("gives the parsed expression, or undefined when the template does not parse", () => {
    const parsed = wholeTemplate("{{ item.id }}");
    expect(parsed.whole && parsed.expression?.kind).toBe("path");
    // Broken templates spanning the whole text keep the shape: the syntax error is reported once,
    // as expression.invalid, not a second time as a shape finding.
    for (const broken of ["{{ a ; b }}", "{{ a", "{{", "}}"]) {
      expect(wholeTemplate(broken)).toEqual({ whole: true, expression: undefined });
    }
  });
});

describe("referencesRoot", () => {
  const expressionOf = (text: string) => {
    const parsed = wholeTemplate(text);
    if (!parsed.whole || parsed.expression === undefined) throw new Error(`not a whole template: ${text}`);
    return parsed.expression;
  };
  it.each([
    ["{{ item.id }}", true],
    ["{{ lower(coalesce(input.x, item.name)) }}", true],
    ["{{ input.a === 'x' || item.b }}", true],
    ["{{ input.key }}", false],
    ["{{ 'item' }}", false],
    ["{{ steps.item.output }}", false],
  ])("%s → %s", (text, expected) => {
    expect(referencesRoot(expressionOf(text), "item")).toBe(expected);
  });
});
