import type { JsonPathSegment } from "@little-stack/canonical";
import { analyzeTemplatesIn, type RootReference, type StepReference } from "../expressions/analyze-template.js";
import { checkSchemaSubset } from "../schema/check-schema-subset.js";

/** One string that contains templates, at its absolute path in the document. */
export type TemplateUse = {
  readonly path: readonly JsonPathSegment[];
  readonly problems: readonly string[];
  readonly stepReferences: readonly StepReference[];
  readonly rootReferences: readonly RootReference[];
};

function reasonOf(error: unknown): string {
  if (error instanceof RangeError) return "it is nested too deeply to analyze";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the expression analyzer over `value`. The analyzer is documented never to throw; if it
 * does anyway, the failure becomes a problem on the root string so validation still finishes.
 */
export function analyzeTemplatesAt(options: {
  readonly value: unknown;
  readonly path: readonly JsonPathSegment[];
  readonly insideParallelBody: boolean;
}): TemplateUse[] {
  try {
    return analyzeTemplatesIn(options.value, { insideParallelBody: options.insideParallelBody }).map(
      (use) => ({
        path: [...options.path, ...use.path],
        problems: use.problems,
        stepReferences: use.stepReferences,
        rootReferences: use.rootReferences,
      }),
    );
  } catch (error) {
    return [
      {
        path: options.path,
        problems: [`the expressions here could not be analyzed: ${reasonOf(error)}`],
        stepReferences: [],
        rootReferences: [],
      },
    ];
  }
}

export type SchemaProblem = { readonly path: readonly JsonPathSegment[]; readonly message: string };

/** Checks a schema against the supported subset; paths are absolute. Never throws. */
export function checkSchemaAt(options: {
  readonly schema: unknown;
  readonly path: readonly JsonPathSegment[];
}): SchemaProblem[] {
  try {
    return checkSchemaSubset(options.schema).map((problem) => ({
      path: [...options.path, ...problem.path],
      message: problem.message,
    }));
  } catch (error) {
    return [{ path: options.path, message: `the schema could not be checked: ${reasonOf(error)}` }];
  }
}
