/**
 * The parsed form of one `{{ … }}` expression. Offsets are 0-based positions in the string the
 * template was found in, so problems can point at a column; `source` is the node's own text.
 */
type NodeBase = {
  readonly start: number;
  readonly end: number;
  readonly source: string;
};

export type LiteralExpression = NodeBase & {
  readonly kind: "literal";
  readonly value: string | number | boolean | null;
};

/** A property name (`.name`, `["key"]`) or an array index (`[3]`). */
export type ExpressionPathSegment = string | number;

export type PathExpression = NodeBase & {
  readonly kind: "path";
  /** As written; only `input`, `item`, `steps`, `step`, `workflow` are valid (checked by analysis). */
  readonly root: string;
  readonly segments: readonly ExpressionPathSegment[];
};

export type CallExpression = NodeBase & {
  readonly kind: "call";
  readonly callee: string;
  readonly arguments: readonly Expression[];
};

export type ComparisonOperator = "===" | "!==" | "==" | "!=" | ">=" | "<=" | ">" | "<";

export type ComparisonExpression = NodeBase & {
  readonly kind: "comparison";
  readonly operator: ComparisonOperator;
  readonly left: Expression;
  readonly right: Expression;
};

export type LogicalExpression = NodeBase & {
  readonly kind: "logical";
  readonly operator: "&&" | "||";
  readonly left: Expression;
  readonly right: Expression;
};

export type Expression =
  | LiteralExpression
  | PathExpression
  | CallExpression
  | ComparisonExpression
  | LogicalExpression;
