import type { Expression } from "./expression-ast.js";
import { ExpressionSyntaxError } from "./expression-errors.js";
import { parseExpressionTokens } from "./parse-expression.js";
import { tokenizeExpression } from "./tokenize-expression.js";

export type TemplateParse =
  | { readonly kind: "literal"; readonly text: string }
  /** The string is exactly one `{{ … }}`: it evaluates to the expression's typed value. */
  | { readonly kind: "whole"; readonly expression: Expression }
  /** Text with embedded templates: evaluates to a string. */
  | { readonly kind: "interpolated"; readonly parts: readonly (string | Expression)[] };

/** One piece of a scanned string: literal text, a parsed template, or a template that failed. */
export type TemplateScanPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "expression"; readonly expression: Expression; readonly start: number; readonly end: number }
  /** `start`..`end` is the failed template, from its `{{` up to its `}}` (or the end of the text). */
  | { readonly kind: "error"; readonly error: ExpressionSyntaxError; readonly start: number; readonly end: number };

/** True when a string contains template braces and therefore needs parsing. */
export function hasTemplateBraces(text: string): boolean {
  return text.includes("{{") || text.includes("}}");
}

/**
 * Splits `text` into literal text and `{{ … }}` templates. A template that fails to parse becomes
 * an `error` part and scanning resumes after its next `}}`, so analysis can report every template.
 */
export function scanTemplateString(text: string): readonly TemplateScanPart[] {
  const parts: TemplateScanPart[] = [];
  let index = 0;
  let literalStart = 0;
  const flushLiteral = (end: number): void => {
    if (end > literalStart) parts.push({ kind: "text", text: text.slice(literalStart, end) });
  };
  while (index < text.length) {
    const open = text.indexOf("{{", index);
    const close = text.indexOf("}}", index);
    if (open === -1 && close === -1) break;
    if (close !== -1 && (open === -1 || close < open)) {
      flushLiteral(close);
      parts.push({
        kind: "error",
        error: new ExpressionSyntaxError({
          problem: "unbalanced `}}` without a matching `{{` (write `} }` for literal braces)",
          text,
          offset: close,
        }),
        start: close,
        end: close + 2,
      });
      index = close + 2;
      literalStart = index;
      continue;
    }
    flushLiteral(open);
    try {
      const { tokens, end } = tokenizeExpression({ text, start: open + 2, closedByBraces: true, openedAt: open });
      const expression = parseExpressionTokens(text, tokens);
      parts.push({ kind: "expression", expression, start: open, end });
      index = end;
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      const resume = text.indexOf("}}", open + 2);
      index = resume === -1 ? text.length : resume + 2;
      parts.push({ kind: "error", error, start: open, end: index });
    }
    literalStart = index;
  }
  flushLiteral(text.length);
  return parts;
}

/**
 * Parses a string value of `with`/`input` per LWIR §6. Throws `ExpressionSyntaxError` (code
 * `expression.invalid`) at the first template that does not parse, naming the problem and column.
 */
export function parseTemplateString(text: string): TemplateParse {
  if (!hasTemplateBraces(text)) return { kind: "literal", text };
  const scanned = scanTemplateString(text);
  const parts: (string | Expression)[] = [];
  for (const part of scanned) {
    if (part.kind === "error") throw part.error;
    parts.push(part.kind === "text" ? part.text : part.expression);
  }
  const only = scanned[0];
  if (scanned.length === 1 && only?.kind === "expression" && only.start === 0 && only.end === text.length) {
    return { kind: "whole", expression: only.expression };
  }
  return { kind: "interpolated", parts };
}
