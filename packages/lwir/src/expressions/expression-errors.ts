import { LittleWorkflowError } from "@little-stack/canonical";

const excerptRadius = 40;

/** The template text around `offset`, short enough for one line of an error message. */
function excerptAround(text: string, offset: number): string {
  if (text.length <= excerptRadius * 2) return text;
  const start = Math.max(0, offset - excerptRadius);
  const end = Math.min(text.length, offset + excerptRadius);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

/** 1-based line and column of a 0-based offset, so multi-line prompts point at the right spot. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** "column 7" or "line 3, column 7" when the text spans several lines. */
export function describePosition(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset);
  return text.includes("\n") ? `line ${line}, column ${column}` : `column ${column}`;
}

export type ExpressionSyntaxErrorOptions = {
  /** What is wrong, without the position (it is added). */
  readonly problem: string;
  /** The whole string the template was found in. */
  readonly text: string;
  /** 0-based offset into `text` where the problem starts. */
  readonly offset: number;
};

/** A `{{ … }}` template that does not follow the expression grammar of LWIR §6. */
export class ExpressionSyntaxError extends LittleWorkflowError {
  readonly problem: string;
  readonly text: string;
  /** 0-based offset into `text`. */
  readonly offset: number;
  readonly line: number;
  /** 1-based column within `line`. */
  readonly column: number;

  constructor(options: ExpressionSyntaxErrorOptions) {
    const { line, column } = lineAndColumn(options.text, options.offset);
    super(
      "expression.invalid",
      `Invalid expression: ${options.problem} at ${describePosition(options.text, options.offset)} of ${JSON.stringify(excerptAround(options.text, options.offset))}. Expressions are {{ path }}, {{ fn(args) }}, one comparison, joined by && or ||.`,
      { details: { problem: options.problem, line, column, text: options.text } },
    );
    this.problem = options.problem;
    this.text = options.text;
    this.offset = options.offset;
    this.line = line;
    this.column = column;
  }
}

export type ExpressionEvaluationErrorCode =
  | "expression.unresolvable"
  | "expression.type_error"
  | "expression.invalid";

export type ExpressionEvaluationErrorOptions = {
  readonly code: ExpressionEvaluationErrorCode;
  /** What went wrong, e.g. `steps.fetch has not completed`. */
  readonly problem: string;
  /** Source text of the expression being evaluated (without the braces). */
  readonly expression: string;
  /** The path that could not be resolved, as written (`steps.fetch.output.items[3]`). */
  readonly missingPath?: string;
  /** Where the template sits in the value being resolved (`$.with.prompt`). */
  readonly location?: string;
};

/** An expression that parsed but could not be evaluated against the given context. */
export class ExpressionEvaluationError extends LittleWorkflowError {
  declare readonly code: ExpressionEvaluationErrorCode;
  readonly problem: string;
  readonly expression: string;
  readonly missingPath: string | undefined;
  readonly location: string | undefined;

  constructor(options: ExpressionEvaluationErrorOptions) {
    const where = options.location === undefined ? "" : ` at ${options.location}`;
    const hint =
      options.code === "expression.unresolvable"
        ? " Check the path, the step's `needs`, or wrap it in coalesce(…, fallback)."
        : "";
    super(
      options.code,
      `Cannot evaluate {{ ${options.expression} }}${where}: ${options.problem}.${hint}`,
      {
        details: {
          expression: options.expression,
          ...(options.missingPath === undefined ? {} : { missingPath: options.missingPath }),
          ...(options.location === undefined ? {} : { location: options.location }),
        },
      },
    );
    this.problem = options.problem;
    this.expression = options.expression;
    this.missingPath = options.missingPath;
    this.location = options.location;
  }

  /** The same failure, placed at a location inside the value being resolved. */
  at(location: string): ExpressionEvaluationError {
    return new ExpressionEvaluationError({
      code: this.code,
      problem: this.problem,
      expression: this.expression,
      ...(this.missingPath === undefined ? {} : { missingPath: this.missingPath }),
      location,
    });
  }
}
