/** The words and names of the LWIR expression language (§6), shared by parser, analysis and evaluation. */

export const expressionRoots = ["input", "item", "steps", "step", "workflow"] as const;
export type ExpressionRoot = (typeof expressionRoots)[number];

export const stepAccessors = ["output", "lastOutput", "allVisits"] as const;
export type StepAccessor = (typeof stepAccessors)[number];

/** JavaScript words a planner may reach for; each gets its own clear rejection. */
export const forbiddenWords: ReadonlySet<string> = new Set([
  "await",
  "new",
  "function",
  "import",
  "require",
  "process",
  "global",
  "globalThis",
  "eval",
]);

/** Keys that would reach an object's prototype in JavaScript; never looked up. */
export const forbiddenKeys: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export function isExpressionRoot(name: string): name is ExpressionRoot {
  return (expressionRoots as readonly string[]).includes(name);
}

export function isStepAccessor(name: unknown): name is StepAccessor {
  return typeof name === "string" && (stepAccessors as readonly string[]).includes(name);
}

/** `steps.fetch-data.output`, `input["a b"][0]`: a path written back as source text. */
export function formatExpressionPath(root: string, segments: readonly (string | number)[]): string {
  let text = root;
  for (const segment of segments) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[\p{L}\p{N}_$-]+$/u.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
