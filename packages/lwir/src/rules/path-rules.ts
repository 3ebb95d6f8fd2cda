import type { ExpressionPathSegment } from "../expressions/expression-ast.js";
import { formatExpressionPath } from "../expressions/expression-vocabulary.js";
import type { FindingList } from "../findings.js";
import { stepOutputSchema } from "../schema/output-mode-schema.js";
import { schemaAtPath } from "../schema/schema-at-path.js";
import { isRecord, ownField } from "./json-shape.js";
import type { LwirRuleContext, StepEntry } from "./rule-context.js";
import { resolveStepId } from "./step-resolution.js";
import { wholeTemplate } from "./whole-template.js";

/** The schema of a step's committed output, as far as its output mode says (undefined: anything). */
function outputSchemaOf(entry: StepEntry): unknown {
  return stepOutputSchema(entry.record === undefined ? undefined : { ...entry.record, uses: entry.uses });
}

export function inputSchemaOf(context: LwirRuleContext): unknown {
  const input = ownField(context.document, "input");
  return isRecord(input) ? ownField(input, "schema") : undefined;
}

/** The schema of one item of a parallel step's `items` (undefined when it cannot be told). */
export function itemSchemaOf(context: LwirRuleContext, parallel: StepEntry): unknown {
  const arraySchema = itemsArraySchemaOf(context, parallel);
  return isRecord(arraySchema) ? arraySchema.items : undefined;
}

/** The schema of a parallel step's whole `items` array, when its template reads the input or a step (undefined otherwise). */
export function itemsArraySchemaOf(context: LwirRuleContext, parallel: StepEntry): unknown {
  const withValue = parallel.record === undefined ? undefined : ownField(parallel.record, "with");
  const items = isRecord(withValue) ? ownField(withValue, "items") : undefined;
  const template = wholeTemplate(items);
  if (!template.whole || template.expression?.kind !== "path") return undefined;
  const path = template.expression;
  let arraySchema: unknown;
  if (path.root === "input") {
    const verdict = schemaAtPath(inputSchemaOf(context), path.segments);
    arraySchema = verdict.kind === "ok" ? verdict.schema : undefined;
  } else if (path.root === "steps" && typeof path.segments[0] === "string") {
    const resolution = resolveStepId({ context, from: parallel, stepId: path.segments[0] });
    if (resolution.kind === "sibling" || resolution.kind === "enclosing_needs") {
      const verdict = schemaAtPath(readSchema(resolution.target, path.segments[1]), path.segments.slice(2));
      arraySchema = verdict.kind === "ok" ? verdict.schema : undefined;
    }
  }
  return arraySchema;
}

/**
 * What `steps.X.<accessor>` reads: the output, or the array of all visits' outputs (at least one
 * when X is read outside a back-edge; a back-edge read has its own rule).
 */
export function readSchema(target: StepEntry, accessor: unknown): unknown {
  const output = outputSchemaOf(target);
  if (accessor === "allVisits") return { type: "array", items: output ?? true, minItems: 1 };
  return output;
}

function report(options: {
  readonly findings: FindingList;
  readonly path: readonly (string | number)[];
  readonly source: string;
  readonly root: string;
  readonly segments: readonly ExpressionPathSegment[];
  readonly at: number;
  readonly problem: string;
  readonly what: string;
}): void {
  const read = formatExpressionPath(options.root, options.segments.slice(0, options.at));
  options.findings.report({
    code: "expression.invalid_path",
    path: options.path,
    message: `\`{{ ${options.source} }}\` can never resolve: ${read} ${options.problem}, according to ${options.what}. Read a field the schema has, or change the schema.`,
  });
}

/** One path an expression reads below `input`, `item` or `steps.X.<accessor>`, with the schema it reads. */
export type SchemaRead = {
  readonly path: readonly (string | number)[];
  readonly source: string;
  /** Where the schema starts: `input`, `item` or `steps.X.<accessor>`, and the segments below it. */
  readonly root: string;
  readonly segments: readonly ExpressionPathSegment[];
  readonly schema: unknown;
  readonly guarded: boolean;
  /** What the schema is, for messages. */
  readonly what: string;
  /** How many segments `root` stands for in the path as written (`steps.X.output` is 3, `input` 1). */
  readonly rootSegments: readonly ExpressionPathSegment[];
};

/** Every schema-typed read of every template in the document. */
export function* schemaReads(context: LwirRuleContext): Generator<SchemaRead> {
  for (const entry of context.allSteps()) {
    for (const use of context.templatesOf(entry)) {
      for (const reference of use.rootReferences) {
        const parallel = entry.scope.parallel ?? (entry.uses === "parallel" ? entry : undefined);
        const schema = reference.root === "input" ? inputSchemaOf(context) : parallel === undefined ? undefined : itemSchemaOf(context, parallel);
        if (schema === undefined) continue;
        yield {
          path: use.path,
          source: reference.source,
          root: reference.root,
          segments: reference.segments,
          schema,
          guarded: reference.guarded,
          what: reference.root === "input" ? "the workflow's input.schema" : "the schema of the parallel step's items",
          rootSegments: [],
        };
      }
      for (const reference of use.stepReferences) {
        if (reference.accessor === null) continue;
        const resolution = resolveStepId({ context, from: entry, stepId: reference.stepId });
        if (resolution.kind !== "sibling" && resolution.kind !== "enclosing_needs" && resolution.kind !== "outer_undeclared") continue;
        yield {
          path: use.path,
          source: reference.source,
          root: "steps",
          segments: reference.rest,
          schema: readSchema(resolution.target, reference.accessor),
          guarded: reference.guarded,
          what: `the output of step "${reference.stepId}" (its output mode${reference.accessor === "allVisits" ? ", one entry per visit" : ""})`,
          rootSegments: [reference.stepId, reference.accessor],
        };
      }
    }
  }
}

/**
 * Paths that the document itself rules out (issue: "what validates, runs"): a path below
 * `input`, `item` or `steps.X.output|lastOutput|allVisits` is walked along the schema of what it
 * reads — the workflow input schema, the parallel items' element schema, the step's output mode —
 * and reported as `expression.invalid_path` when no value that schema accepts has it
 * (`allVisits.length`, a field an object schema does not allow, anything below a text output).
 */
export function checkPathRules(context: LwirRuleContext, findings: FindingList): void {
  for (const read of schemaReads(context)) {
    const verdict = schemaAtPath(read.schema, read.segments);
    if (verdict.kind === "ok") continue;
    report({
      findings,
      path: read.path,
      source: read.source,
      root: read.root,
      segments: [...read.rootSegments, ...read.segments],
      at: verdict.at + read.rootSegments.length,
      problem: verdict.problem,
      what: read.what,
    });
  }
}
