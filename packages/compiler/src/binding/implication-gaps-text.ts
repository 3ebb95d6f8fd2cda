import type { SchemaImplicationGap } from "@little-stack/lwir";

/**
 * `schemaImplicationGaps` words its problems for a step against the workflow ("the step may
 * produce …, the workflow schema requires …"); this names the two schemas being compared instead,
 * and shows the first three gaps.
 */
export function describeImplicationGaps(gaps: readonly SchemaImplicationGap[], names: { readonly narrow: string; readonly wide: string }): string {
  return gaps
    .slice(0, 3)
    .map((gap) => {
      // One pass, so a replacement is never rewritten again ("the step's output" as a name).
      const problem = gap.problem.replace(/the workflow schema's|the workflow schema|the workflow's|the step's schema|the step's|the step may/g, (phrase) => {
        if (phrase === "the workflow schema's") return `${names.wide}'s`;
        if (phrase.startsWith("the workflow")) return names.wide;
        if (phrase === "the step may") return `${names.narrow} may`;
        return names.narrow;
      });
      return `at ${gap.path}: ${problem}`;
    })
    .join("; ");
}
