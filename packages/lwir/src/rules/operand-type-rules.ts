import type { JsonPathSegment } from "@little-stack/canonical";
import type { Expression, PathExpression } from "../expressions/expression-ast.js";
import { formatExpressionPath } from "../expressions/expression-vocabulary.js";
import { parseTemplateString } from "../expressions/parse-template.js";
import type { FindingList } from "../findings.js";
import { schemaAtPath } from "../schema/schema-at-path.js";
import { isRecord } from "./json-shape.js";
import { inputSchemaOf, itemSchemaOf, readSchema } from "./path-rules.js";
import type { LwirRuleContext, StepEntry, StepScope } from "./rule-context.js";
import type { ScopeGraph } from "./scope-graph.js";
import { resolveStepId } from "./step-resolution.js";

/** JSON types, integers counted as numbers. */
type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array";

/** What an operand can be: its possible types, and whether that is only so in a loop's first pass. */
type Operand = { readonly types: ReadonlySet<JsonType>; readonly firstPass?: string };

const allTypes: readonly JsonType[] = ["string", "number", "boolean", "null", "object", "array"];

function typeOfValue(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : (typeof value as JsonType);
}

/** The types a schema allows, or undefined when it does not say (no type, `true`, a construct not read here). */
function schemaTypes(schema: unknown): Set<JsonType> | undefined {
  if (schema === false) return new Set();
  if (!isRecord(schema)) return undefined;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches !== undefined) {
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const types = schemaTypes(branch);
      if (types === undefined) return undefined;
      for (const type of types) union.add(type);
    }
    return union;
  }
  if (Object.hasOwn(schema, "const")) return new Set([typeOfValue(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(typeOfValue));
  const raw = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (raw === undefined) return undefined;
  return new Set(raw.map((type) => (type === "integer" ? "number" : type)).filter((type): type is JsonType => allTypes.includes(type as JsonType)));
}

/** Functions whose argument must be one of some types; anything else throws `expression.type_error` at run time. */
const argumentTypes: Readonly<Record<string, readonly JsonType[]>> = {
  len: ["string", "array", "object"],
  lower: ["string"],
  upper: ["string"],
  date: ["string", "number"],
};
const resultTypes: Readonly<Record<string, JsonType>> = { len: "number", lower: "string", upper: "string", json: "string", date: "string", sha256: "string", hmac: "string" };
const orderings = new Set([">", "<", ">=", "<="]);

function valueAt(root: unknown, path: readonly JsonPathSegment[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function describeTypes(types: ReadonlySet<JsonType>): string {
  return types.size === 0 ? "nothing" : [...types].join(" or ");
}

class OperandTypes {
  constructor(
    private readonly context: LwirRuleContext,
    private readonly graphs: ReadonlyMap<StepScope, ScopeGraph>,
    private readonly entry: StepEntry,
  ) {}

  /** The types an expression's value can have, or undefined when the document does not say. */
  of(node: Expression): Operand | undefined {
    switch (node.kind) {
      case "literal":
        return { types: new Set([typeOfValue(node.value)]) };
      case "comparison":
      case "logical":
        return { types: new Set(["boolean"]) };
      case "call":
        return this.ofCall(node.callee, node.arguments);
      case "path":
        return this.ofPath(node);
    }
  }

  private ofCall(callee: string, args: readonly Expression[]): Operand | undefined {
    const result = resultTypes[callee];
    if (result !== undefined) return { types: new Set([result]) };
    if (callee !== "coalesce") return undefined;
    // The first non-null argument: any argument's non-null types, null only when every one may be null.
    const union = new Set<JsonType>();
    let allMayBeNull = true;
    for (const argument of args) {
      const operand = this.of(argument);
      if (operand === undefined) return undefined;
      for (const type of operand.types) if (type !== "null") union.add(type);
      if (!operand.types.has("null")) allMayBeNull = false;
    }
    if (allMayBeNull) union.add("null");
    return { types: union };
  }

  private ofPath(node: PathExpression): Operand | undefined {
    if (node.root === "input") return this.ofSchema(inputSchemaOf(this.context), node.segments);
    if (node.root === "item") {
      const parallel = this.entry.scope.parallel ?? (this.entry.uses === "parallel" ? this.entry : undefined);
      return parallel === undefined ? undefined : this.ofSchema(itemSchemaOf(this.context, parallel), node.segments);
    }
    if (node.root !== "steps") return undefined;
    const [stepId, accessor, ...rest] = node.segments;
    if (typeof stepId !== "string" || (accessor !== "output" && accessor !== "lastOutput" && accessor !== "allVisits")) return undefined;
    const resolution = resolveStepId({ context: this.context, from: this.entry, stepId });
    if (resolution.kind !== "sibling" && resolution.kind !== "enclosing_needs") return undefined;
    if (rest.length === 0 && accessor !== "output" && this.isFirstPassBackEdge(resolution.kind, resolution.target)) {
      // Before the loop's first pass reaches the step: lastOutput is null, allVisits [].
      return { types: new Set([accessor === "lastOutput" ? "null" : "array"]), firstPass: formatExpressionPath("steps", [stepId, accessor]) };
    }
    return this.ofSchema(readSchema(resolution.target, accessor), rest);
  }

  private isFirstPassBackEdge(kind: string, target: StepEntry): boolean {
    const entry = this.entry;
    if (kind !== "sibling" || !entry.needsKnown || entry.needs.some((need) => need.id === target.id)) return false;
    if (entry.id === undefined || entry.isDuplicate) return false;
    const graph = this.graphs.get(entry.scope);
    return graph !== undefined && graph.reaches(target, entry) && !graph.ranBefore(target, entry);
  }

  private ofSchema(schema: unknown, segments: readonly (string | number)[]): Operand | undefined {
    if (schema === undefined) return undefined;
    const verdict = schemaAtPath(schema, segments);
    if (verdict.kind !== "ok") return undefined; // expression.invalid_path reports it
    const types = schemaTypes(verdict.schema);
    return types === undefined ? undefined : { types };
  }
}

type Problem = { readonly firstPass?: string; readonly message: string };

/** Function arguments and ordering comparisons that no value the document allows can satisfy. */
function problemsIn(node: Expression, types: OperandTypes, problems: Problem[]): void {
  switch (node.kind) {
    case "literal":
    case "path":
      return;
    case "logical":
      problemsIn(node.left, types, problems);
      problemsIn(node.right, types, problems);
      return;
    case "call": {
      for (const argument of node.arguments) problemsIn(argument, types, problems);
      const accepted = argumentTypes[node.callee];
      const argument = node.arguments[0];
      if (accepted === undefined || argument === undefined) return;
      const operand = types.of(argument);
      if (operand === undefined || [...operand.types].some((type) => accepted.includes(type))) return;
      problems.push({
        ...(operand.firstPass === undefined ? {} : { firstPass: operand.firstPass }),
        message: `\`${node.source}\` always fails${operand.firstPass === undefined ? "" : " in the loop's first pass"}: ${node.callee}() takes ${accepted.join(" or ")}, and \`${argument.source}\` is ${describeTypes(operand.types)}${operand.firstPass === undefined ? "" : ` there (the step has not run yet): write ${node.callee}(coalesce(${argument.source}, ${accepted.includes("string") ? "''" : "0"}))`}`,
      });
      return;
    }
    case "comparison": {
      problemsIn(node.left, types, problems);
      problemsIn(node.right, types, problems);
      if (!orderings.has(node.operator)) return;
      const left = types.of(node.left);
      const right = types.of(node.right);
      if (left === undefined || right === undefined) return;
      const comparable = (["number", "string"] as const).some((type) => left.types.has(type) && right.types.has(type));
      if (comparable) return;
      const firstPass = left.firstPass ?? right.firstPass;
      problems.push({
        ...(firstPass === undefined ? {} : { firstPass }),
        message: `\`${node.source}\` always fails${firstPass === undefined ? "" : " in the loop's first pass"}: ${node.operator} compares two numbers or two strings, and \`${node.left.source}\` is ${describeTypes(left.types)} while \`${node.right.source}\` is ${describeTypes(right.types)}${firstPass === undefined ? " (compute it in code.run, or give the step an object output with a number field)" : ` there (the step has not run yet): wrap it, e.g. coalesce(${firstPass}, 0)`}`,
      });
    }
  }
}

/**
 * Expressions the runtime cannot evaluate whatever the data (issue: "what validates, runs"):
 * `len`/`lower`/`upper`/`date` of a value whose schema allows none of the types they take, and
 * `<`/`>`/`<=`/`>=` between operands that can never both be numbers or both strings — judged from
 * literals, the input and item schemas and the steps' output modes. A bare back-edge read in a
 * loop's first pass is null (`lastOutput`) or [] (`allVisits`), so `len(steps.draft.lastOutput)`
 * in the loop head is `expression.unguarded_back_edge_read`; the others are `expression.invalid`.
 */
export function checkOperandTypeRules(context: LwirRuleContext, graphs: ReadonlyMap<StepScope, ScopeGraph>, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    const types = new OperandTypes(context, graphs, entry);
    for (const use of context.templatesOf(entry)) {
      if (use.problems.length > 0) continue; // expression.invalid already
      const text = valueAt(context.document, use.path);
      if (typeof text !== "string") continue;
      let parsed: ReturnType<typeof parseTemplateString>;
      try {
        parsed = parseTemplateString(text);
      } catch {
        continue;
      }
      const expressions = parsed.kind === "whole" ? [parsed.expression] : parsed.kind === "interpolated" ? parsed.parts.filter((part): part is Expression => typeof part !== "string") : [];
      const problems: Problem[] = [];
      for (const expression of expressions) problemsIn(expression, types, problems);
      const firstPass = problems.filter((problem) => problem.firstPass !== undefined);
      const always = problems.filter((problem) => problem.firstPass === undefined);
      if (firstPass.length > 0) findings.report({ code: "expression.unguarded_back_edge_read", path: use.path, message: `${firstPass.map((problem) => problem.message).join("; ")}.` });
      if (always.length > 0) findings.report({ code: "expression.invalid", path: use.path, message: `Invalid expression: ${always.map((problem) => problem.message).join("; ")}.` });
    }
  }
}
