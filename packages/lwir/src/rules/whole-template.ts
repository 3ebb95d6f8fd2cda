import type { Expression } from "../expressions/expression-ast.js";
import { scanTemplateString } from "../expressions/parse-template.js";

/**
 * Whether `text` is exactly one `{{ … }}` template with nothing around it, the form a field must
 * take when it resolves to a typed value (decision `when`, parallel `items` / `itemKey`). A
 * whole template that does not parse still has the right shape (`expression` is undefined): its
 * syntax error is the expression analyzer's finding, not a shape finding.
 */
export function wholeTemplate(
  text: unknown,
): { readonly whole: false } | { readonly whole: true; readonly expression: Expression | undefined } {
  if (typeof text !== "string" || text.length === 0) return { whole: false };
  try {
    const parts = scanTemplateString(text);
    const only = parts[0];
    if (parts.length !== 1 || only === undefined || only.kind === "text") return { whole: false };
    if (only.start !== 0 || only.end !== text.length) return { whole: false };
    return { whole: true, expression: only.kind === "expression" ? only.expression : undefined };
  } catch {
    return { whole: false };
  }
}

export function isWholeTemplate(text: unknown): text is string {
  return wholeTemplate(text).whole;
}

/** True when any path in `expression` starts at `root` (walked with a stack, not recursion). */
export function referencesRoot(expression: Expression, root: string): boolean {
  const stack: Expression[] = [expression];
  while (stack.length > 0) {
    const node = stack.pop() as Expression;
    switch (node.kind) {
      case "path":
        if (node.root === root) return true;
        break;
      case "call":
        for (const argument of node.arguments) stack.push(argument);
        break;
      case "comparison":
      case "logical":
        stack.push(node.left, node.right);
        break;
      case "literal":
        break;
    }
  }
  return false;
}
