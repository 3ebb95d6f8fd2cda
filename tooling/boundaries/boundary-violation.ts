/** Which of the boundary rules a violation breaks. */
export type BoundaryRule =
  | "graph-table"
  | "dependency-not-allowed"
  | "tsconfig-references"
  | "undeclared-import"
  | "deep-import"
  | "root-dependency"
  | "cycle";

export type BoundaryViolation = {
  readonly rule: BoundaryRule;
  /** Repository-relative path of the file to change. */
  readonly file: string;
  /** What is wrong and what to do, on one line. */
  readonly message: string;
};

/** One line per violation: `<file>: <message> [<rule>]`. */
export function formatViolation(violation: BoundaryViolation): string {
  return `${violation.file}: ${violation.message} [${violation.rule}]`;
}
