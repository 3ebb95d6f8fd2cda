import { canonicalJson, formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import type { CallExpression, ComparisonExpression, Expression, PathExpression } from "./expression-ast.js";
import { ExpressionEvaluationError, ExpressionSyntaxError } from "./expression-errors.js";
import {
  describeArity,
  eagerFunctionBodies,
  ExpressionFunctionTypeError,
  lookupExpressionFunction,
} from "./expression-functions.js";
import { forbiddenKeys, formatExpressionPath, isStepAccessor } from "./expression-vocabulary.js";
import { hasTemplateBraces, parseTemplateString, type TemplateParse } from "./parse-template.js";
import { templateFreeCopy } from "./template-free-copy.js";

/** What `steps.X` sees of one step. */
export type StepExpressionState = {
  readonly status: "completed" | "pending";
  readonly output?: unknown;
  /** Outputs of the completed visits of a multi-visit step, in order. */
  readonly visits?: readonly unknown[];
};

/** The values expressions can read. `item` is present only inside a parallel body. */
export type ExpressionContext = {
  readonly input: unknown;
  readonly item?: unknown;
  readonly steps: Readonly<Record<string, StepExpressionState>>;
  /** The raw current step (its LWIR object). */
  readonly step?: unknown;
  /** The LWIR document. */
  readonly workflow?: unknown;
};

/** JavaScript truthiness over JSON values: false, null, 0, NaN and "" are falsy; [] and {} are truthy. */
export function isTruthy(value: unknown): boolean {
  return Boolean(value);
}

class Evaluation {
  constructor(
    private readonly context: ExpressionContext,
    private readonly expression: Expression,
  ) {}

  fail(code: ExpressionEvaluationError["code"], problem: string, missingPath?: string): never {
    throw new ExpressionEvaluationError({
      code,
      problem,
      expression: this.expression.source,
      ...(missingPath === undefined ? {} : { missingPath }),
    });
  }

  evaluate(node: Expression): unknown {
    switch (node.kind) {
      case "literal":
        return node.value;
      case "path":
        return this.resolvePath(node);
      case "call":
        return this.call(node);
      case "comparison":
        return this.compare(node);
      case "logical":
        if (node.operator === "||") return isTruthy(this.evaluate(node.left)) || isTruthy(this.evaluate(node.right));
        return isTruthy(this.evaluate(node.left)) && isTruthy(this.evaluate(node.right));
    }
  }

  private unresolvable(node: PathExpression, upTo: number, problem: string): never {
    const written = formatExpressionPath(node.root, node.segments.slice(0, upTo));
    return this.fail("expression.unresolvable", `${written} ${problem}`, node.source);
  }

  private rootValue(node: PathExpression): { value: unknown; consumed: number } {
    const context = this.context;
    switch (node.root) {
      case "input":
        if (context.input === undefined) this.unresolvable(node, 0, "is not available (no workflow input)");
        return { value: context.input, consumed: 0 };
      case "item":
        if (!Object.hasOwn(context, "item") || context.item === undefined) {
          this.unresolvable(node, 0, "is only available inside a parallel body");
        }
        return { value: context.item, consumed: 0 };
      case "step":
      case "workflow": {
        const value = context[node.root];
        if (value === undefined) this.unresolvable(node, 0, "is not available in this context");
        return { value, consumed: 0 };
      }
      case "steps":
        return { value: this.stepValue(node), consumed: 2 };
      default:
        return this.fail(
          "expression.invalid",
          `unknown root "${node.root}": paths start at input, item, steps, step or workflow`,
          node.source,
        );
    }
  }

  private stepValue(node: PathExpression): unknown {
    const [stepId, accessor] = node.segments;
    if (typeof stepId !== "string") {
      return this.fail("expression.invalid", "steps must be followed by a step id (steps.<id>.output), not an index", node.source);
    }
    if (!isStepAccessor(accessor)) {
      return this.fail(
        "expression.invalid",
        `${formatExpressionPath("steps", [stepId])} must be followed by .output, .lastOutput or .allVisits`,
        node.source,
      );
    }
    const steps = this.context.steps;
    if (forbiddenKeys.has(stepId) || !Object.hasOwn(steps, stepId)) {
      this.unresolvable(node, 1, "is not a step visible here");
    }
    const state = steps[stepId]!;
    const visits = Array.isArray(state.visits) && state.visits.length > 0 ? state.visits : undefined;
    const completed = state.status === "completed";
    switch (accessor) {
      case "output":
        if (!completed) this.unresolvable(node, 2, `is not available: step "${stepId}" has not completed`);
        return state.output;
      case "lastOutput":
        // Before a step's first visit (a back-edge read in a loop's first pass) there is no last
        // output: null, so a bare read interpolates as "null" and coalesce(...) picks its fallback.
        if (visits !== undefined) return visits[visits.length - 1];
        return completed ? state.output : null;
      case "allVisits":
        if (visits !== undefined) return visits;
        return completed ? [state.output] : [];
    }
  }

  private resolvePath(node: PathExpression): unknown {
    const root = this.rootValue(node);
    let value = root.value;
    for (let index = root.consumed; index < node.segments.length; index += 1) {
      const segment = node.segments[index]!;
      if (typeof segment === "string" && forbiddenKeys.has(segment)) {
        return this.fail("expression.invalid", `"${segment}" cannot be read in an expression`, node.source);
      }
      if (Array.isArray(value)) {
        const position = typeof segment === "number" ? segment : /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : -1;
        if (position < 0) this.unresolvable(node, index, `is an array: it has no property "${segment}" (use len(…) for its length)`);
        if (position >= value.length) {
          this.unresolvable(node, index, `has ${value.length} item${value.length === 1 ? "" : "s"}, no index ${position}`);
        }
        value = value[position];
        continue;
      }
      if (typeof value === "object" && value !== null) {
        const key = String(segment);
        if (!Object.hasOwn(value, key)) this.unresolvable(node, index, `has no property "${key}"`);
        value = (value as Record<string, unknown>)[key];
        continue;
      }
      const kind = value === null ? "null" : typeof value;
      this.unresolvable(node, index, `is ${kind}, so it has no ${typeof segment === "number" ? `index ${segment}` : `property "${segment}"`}`);
    }
    if (value === undefined) this.unresolvable(node, node.segments.length, "is undefined");
    return value;
  }

  private call(node: CallExpression): unknown {
    const fn = lookupExpressionFunction(node.callee);
    if (fn === undefined) return this.fail("expression.invalid", `unknown function ${node.callee}()`);
    const count = node.arguments.length;
    if (count < fn.minArguments || count > fn.maxArguments) {
      return this.fail("expression.invalid", `${fn.name}() takes ${describeArity(fn)}, got ${count}`);
    }
    if (fn.name === "coalesce") return this.coalesce(node);
    const args = node.arguments.map((argument) => this.evaluate(argument));
    try {
      return eagerFunctionBodies[fn.name]!(args);
    } catch (error) {
      if (error instanceof ExpressionFunctionTypeError) return this.fail("expression.type_error", error.message);
      throw error;
    }
  }

  // Lazy: later arguments are not evaluated once a non-null value is found.
  private coalesce(node: CallExpression): unknown {
    for (const argument of node.arguments) {
      let value: unknown;
      try {
        value = this.evaluate(argument);
      } catch (error) {
        if (error instanceof ExpressionEvaluationError && error.code === "expression.unresolvable") continue;
        throw error;
      }
      if (value !== null && value !== undefined) return value;
    }
    return null;
  }

  private compare(node: ComparisonExpression): boolean {
    const left = this.evaluate(node.left);
    const right = this.evaluate(node.right);
    switch (node.operator) {
      case "===":
        return jsonEqual(left, right);
      case "!==":
        return !jsonEqual(left, right);
      case "==":
        return looseEqual(left, right);
      case "!=":
        return !looseEqual(left, right);
      default: {
        const bothNumbers = typeof left === "number" && typeof right === "number";
        const bothStrings = typeof left === "string" && typeof right === "string";
        if (!bothNumbers && !bothStrings) {
          return this.fail(
            "expression.type_error",
            `${node.operator} compares two numbers or two strings, got ${describeValue(left)} and ${describeValue(right)}`,
          );
        }
        const a = left as number | string;
        const b = right as number | string;
        if (node.operator === ">") return a > b;
        if (node.operator === "<") return a < b;
        if (node.operator === ">=") return a >= b;
        return a <= b;
      }
    }
  }
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Structural equality of JSON values: data read from different steps never shares references. */
function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
    return Number.isNaN(left) && Number.isNaN(right);
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every(
    (key) => Object.hasOwn(right, key) && jsonEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

/** JavaScript `==` between primitives (`"3" == 3`), structural equality between objects. */
function looseEqual(left: unknown, right: unknown): boolean {
  const leftIsObject = typeof left === "object" && left !== null;
  const rightIsObject = typeof right === "object" && right !== null;
  if (leftIsObject || rightIsObject) return leftIsObject && rightIsObject && jsonEqual(left, right);
  // Primitives only here, so `==` cannot run user code through valueOf/toString.
  return left == right;
}

/** Evaluates one parsed expression against a context; throws `ExpressionEvaluationError`. */
export function evaluateExpression(expression: Expression, context: ExpressionContext): unknown {
  return new Evaluation(context, expression).evaluate(expression);
}

function interpolate(value: unknown, expression: Expression): string {
  if (typeof value === "string") return value;
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return canonicalJson(value);
  } catch (error) {
    throw new ExpressionEvaluationError({
      code: "expression.type_error",
      problem: `its value cannot be written into text: ${(error as Error).message}`,
      expression: expression.source,
    });
  }
}

const parseCacheLimit = 2_000;
const parseCache = new Map<string, TemplateParse>();

// The runtime resolves the same templates for every step attempt and branch: parse each once.
function parseCached(text: string): TemplateParse {
  const cached = parseCache.get(text);
  if (cached !== undefined) return cached;
  const parsed = parseTemplateString(text);
  if (parseCache.size >= parseCacheLimit) parseCache.clear();
  parseCache.set(text, parsed);
  return parsed;
}

/** Evaluates one string: a whole template gives the typed value, embedded templates give text. */
export function evaluateTemplateString(text: string, context: ExpressionContext): unknown {
  if (!hasTemplateBraces(text)) return text;
  const parsed = parseCached(text);
  if (parsed.kind === "literal") return parsed.text;
  // A whole template hands on a value of the context, often a step's output (frozen, as recorded):
  // the receiver gets a copy of an object, to change as it likes without reaching what was recorded.
  if (parsed.kind === "whole") return copiedIfObject(evaluateExpression(parsed.expression, context));
  return parsed.parts
    .map((part) => (typeof part === "string" ? part : interpolate(evaluateExpression(part, context), part)))
    .join("");
}

function copiedIfObject(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
}

function resolveAt(value: unknown, context: ExpressionContext, path: JsonPathSegment[]): unknown {
  if (typeof value === "string") {
    try {
      return evaluateTemplateString(value, context);
    } catch (error) {
      if (error instanceof ExpressionEvaluationError) throw error.at(formatJsonPath(path));
      if (error instanceof ExpressionSyntaxError) {
        throw new ExpressionEvaluationError({
          code: "expression.invalid",
          problem: error.message,
          expression: value,
          location: formatJsonPath(path),
        });
      }
      throw error;
    }
  }
  if (typeof value === "object" && value !== null) {
    // A registered plan's `with` is frozen: the parts of it without templates are copied natively.
    const copy = templateFreeCopy(value);
    if (copy !== undefined) return copy;
  }
  if (Array.isArray(value)) {
    return value.map((entry, index) => resolveAt(entry, context, [...path, index]));
  }
  if (typeof value === "object" && value !== null) {
    // fromEntries defines own properties, so a "__proto__" key stays data instead of a prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, resolveAt(entry, context, [...path, key])]),
    );
  }
  return value;
}

/**
 * Resolves every template in a JSON value (deeply). A string that is exactly one template becomes
 * the expression's typed value; embedded templates are interpolated into the text. The input is
 * not modified. Errors are `ExpressionEvaluationError`s whose `location` is the JSONPath (from `$`
 * = the given value) of the failing string.
 */
export function resolveTemplates(value: unknown, context: ExpressionContext): unknown {
  return resolveAt(value, context, []);
}
