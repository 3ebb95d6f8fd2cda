import type { JsonPathSegment } from "@little-stack/canonical";
import type { Expression, ExpressionPathSegment, PathExpression } from "./expression-ast.js";
import { describePosition } from "./expression-errors.js";
import { describeArity, expressionFunctions, lookupExpressionFunction } from "./expression-functions.js";
import { forbiddenKeys, forbiddenWords, isExpressionRoot, isStepAccessor, type StepAccessor } from "./expression-vocabulary.js";
import { hasTemplateBraces, scanTemplateString, type TemplateScanPart } from "./parse-template.js";

export type TemplateAnalysisOptions = {
  /** True for `with`/`input` of a step inside a parallel body, where `item` is defined. */
  readonly insideParallelBody: boolean;
};

export type StepReference = {
  readonly stepId: string;
  /** The accessor after the step id; null when it is missing or not one of the three. */
  readonly accessor: StepAccessor | null;
  /** What the path reads below the accessor (`steps.x.output.a[0]` → `["a", 0]`). */
  readonly rest: readonly ExpressionPathSegment[];
  /** True inside an argument of `coalesce(…)`, where an unresolvable path falls through. */
  readonly guarded: boolean;
  /** The path as written. */
  readonly source: string;
};

/** An `input…` or `item…` path found in a template. */
export type RootReference = {
  readonly root: "input" | "item";
  readonly segments: readonly ExpressionPathSegment[];
  readonly guarded: boolean;
  readonly source: string;
};

export type TemplateAnalysis = {
  /** Every static rejection of LWIR §6, each naming what and where (the offending text). */
  readonly problems: readonly string[];
  readonly stepReferences: readonly StepReference[];
  readonly rootReferences: readonly RootReference[];
};

export type TemplateAnalysisAt = TemplateAnalysis & {
  /** Path of the string inside the analyzed value. */
  readonly path: JsonPathSegment[];
};

const functionList = Object.keys(expressionFunctions).join(", ");

class TemplateChecker {
  readonly problems: string[] = [];
  readonly stepReferences: StepReference[] = [];
  readonly rootReferences: RootReference[] = [];
  /** How many coalesce(…) calls enclose the node being checked. */
  private coalesceDepth = 0;

  constructor(
    private readonly text: string,
    private readonly options: TemplateAnalysisOptions,
  ) {}

  private report(problem: string, node: Expression): void {
    this.problems.push(`${problem}: \`${node.source}\` at ${describePosition(this.text, node.start)}`);
  }

  reportSyntax(part: TemplateScanPart & { kind: "error" }): void {
    const template = this.text.slice(part.start, part.end);
    const shown = template.length > 120 ? `${template.slice(0, 117)}...` : template;
    this.problems.push(`${part.error.problem}: \`${shown}\` at ${describePosition(this.text, part.error.offset)}`);
  }

  check(node: Expression): void {
    switch (node.kind) {
      case "literal":
        return;
      case "comparison":
      case "logical":
        this.check(node.left);
        this.check(node.right);
        return;
      case "call": {
        const fn = lookupExpressionFunction(node.callee);
        if (forbiddenWords.has(node.callee)) this.report(`\`${node.callee}\` is not allowed in expressions`, node);
        else if (fn === undefined) this.report(`unknown function ${node.callee}() (available: ${functionList})`, node);
        else if (node.arguments.length < fn.minArguments || node.arguments.length > fn.maxArguments) {
          this.report(`wrong number of arguments: ${fn.signature} takes ${describeArity(fn)}, got ${node.arguments.length}`, node);
        }
        const guards = node.callee === "coalesce";
        if (guards) this.coalesceDepth += 1;
        try {
          for (const argument of node.arguments) this.check(argument);
        } finally {
          if (guards) this.coalesceDepth -= 1;
        }
        return;
      }
      case "path":
        this.checkPath(node);
    }
  }

  private checkPath(node: PathExpression): void {
    if (forbiddenWords.has(node.root)) {
      this.report(`\`${node.root}\` is not allowed in expressions`, node);
      return;
    }
    if (!isExpressionRoot(node.root)) {
      this.report(`unknown root "${node.root}" (paths start at input, item, steps, step or workflow)`, node);
      return;
    }
    for (const segment of node.segments) {
      if (typeof segment === "string" && forbiddenKeys.has(segment)) {
        this.report(`"${segment}" is a forbidden key`, node);
      }
    }
    if (node.root === "item" && !this.options.insideParallelBody) {
      this.report("`item` is only available inside a parallel body", node);
    }
    if (node.root === "steps") this.checkStepPath(node);
    if (node.root === "input" || node.root === "item") {
      this.rootReferences.push({ root: node.root, segments: node.segments, guarded: this.coalesceDepth > 0, source: node.source });
    }
  }

  private checkStepPath(node: PathExpression): void {
    const [stepId, accessor] = node.segments;
    if (stepId === undefined) {
      this.report("`steps` needs a step id: steps.<id>.output", node);
      return;
    }
    if (typeof stepId === "number") {
      this.report(`numeric steps[${stepId}] is not allowed: refer to a step by its id (steps.<id>.output)`, node);
      return;
    }
    if (!isStepAccessor(accessor)) {
      const found = accessor === undefined ? "nothing" : `"${accessor}"`;
      this.report(`steps.<id> must be followed by .output, .lastOutput or .allVisits, found ${found}`, node);
    }
    this.stepReferences.push({
      stepId,
      accessor: isStepAccessor(accessor) ? accessor : null,
      rest: node.segments.slice(2),
      guarded: this.coalesceDepth > 0,
      source: node.source,
    });
  }
}

/**
 * Static checks of every template in one string. Never throws: syntax errors become problems too,
 * and every template of the string is checked, not only the first bad one.
 */
export function analyzeTemplateString(text: string, options: TemplateAnalysisOptions): TemplateAnalysis {
  if (typeof text !== "string" || !hasTemplateBraces(text)) return { problems: [], stepReferences: [], rootReferences: [] };
  const checker = new TemplateChecker(text, options);
  try {
    for (const part of scanTemplateString(text)) {
      if (part.kind === "error") checker.reportSyntax(part);
      else if (part.kind === "expression") checker.check(part.expression);
    }
  } catch (error) {
    // Defensive: analysis must never throw (e.g. a pathological input exhausting the stack).
    checker.problems.push(`expression could not be analyzed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { problems: checker.problems, stepReferences: checker.stepReferences, rootReferences: checker.rootReferences };
}

/**
 * Walks any JSON value (objects, arrays; own enumerable keys only) and analyzes every string that
 * contains `{{` or `}}`. Iterative, cycle-safe and never throws, so a validator can hand it
 * anything.
 */
export function analyzeTemplatesIn(value: unknown, options: TemplateAnalysisOptions): TemplateAnalysisAt[] {
  const results: TemplateAnalysisAt[] = [];
  const seen = new Set<object>();
  // Paths are linked to their parent and only materialized for templated strings, so deep
  // nesting costs O(depth), not O(depth²).
  type Entry = { value: unknown; key: JsonPathSegment | undefined; parent: Entry | undefined };
  const pathOf = (entry: Entry): JsonPathSegment[] => {
    const path: JsonPathSegment[] = [];
    for (let current: Entry | undefined = entry; current?.key !== undefined; current = current.parent) path.push(current.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === "string") {
      if (hasTemplateBraces(current)) results.push({ path: pathOf(entry), ...analyzeTemplateString(current, options) });
      continue;
    }
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    let children: [JsonPathSegment, unknown][];
    try {
      children = Array.isArray(current)
        ? current.map((child, index): [JsonPathSegment, unknown] => [index, child])
        : Object.entries(current);
    } catch {
      continue; // a throwing getter or proxy: nothing the validator can analyze there
    }
    // Reversed so the stack pops them in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [key, child] = children[index]!;
      stack.push({ value: child, key, parent: entry });
    }
  }
  return results;
}
