import type {
  CallExpression,
  ComparisonOperator,
  Expression,
  ExpressionPathSegment,
  PathExpression,
} from "./expression-ast.js";
import { ExpressionSyntaxError } from "./expression-errors.js";
import { forbiddenWords } from "./expression-vocabulary.js";
import { tokenizeExpression, type ExpressionToken } from "./tokenize-expression.js";

const comparisonOperators: ReadonlySet<string> = new Set(["===", "!==", "==", "!=", ">=", "<=", ">", "<"]);

function describeToken(token: ExpressionToken): string {
  if (token.kind === "end") return token.value === "}}" ? "`}}`" : "the end of the expression";
  if (token.kind === "string") return `string ${JSON.stringify(token.value)}`;
  if (token.kind === "number") return `number ${token.value}`;
  return `\`${token.value}\``;
}

/**
 * Recursive-descent parser for LWIR §6, lowest precedence first: `||`, `&&`, one comparison,
 * operand (literal, function call, path).
 */
// Bounds that keep parsing and evaluation well inside the call stack for any input.
const maxCallDepth = 32;
const maxLogicalOperands = 256;

class ExpressionParser {
  private position = 0;
  private callDepth = 0;
  private logicalOperands = 1;

  constructor(
    private readonly text: string,
    private readonly tokens: readonly ExpressionToken[],
  ) {}

  parse(): Expression {
    const first = this.peek();
    if (first.kind === "end") this.fail("empty expression: write a path such as input.name", first.start);
    const expression = this.parseOr();
    const next = this.peek();
    if (next.kind !== "end") this.unexpected(next);
    return expression;
  }

  private peek(offset = 0): ExpressionToken {
    return this.tokens[Math.min(this.position + offset, this.tokens.length - 1)]!;
  }

  private take(): ExpressionToken {
    const token = this.peek();
    if (this.position < this.tokens.length - 1) this.position += 1;
    return token;
  }

  private fail(problem: string, offset: number): never {
    throw new ExpressionSyntaxError({ problem, text: this.text, offset });
  }

  private unexpected(token: ExpressionToken): never {
    if (token.kind === "punctuation" && token.value === "(") {
      this.fail("parentheses are not supported: only function calls use ( )", token.start);
    }
    if (token.kind === "operator" && comparisonOperators.has(token.value)) {
      this.fail(`only one comparison is allowed per operand: join comparisons with && or ||, found a second ${describeToken(token)}`, token.start);
    }
    this.fail(`unexpected ${describeToken(token)}`, token.start);
  }

  private isOperator(value: string): boolean {
    const token = this.peek();
    return token.kind === "operator" && token.value === value;
  }

  private isPunctuation(value: string): boolean {
    const token = this.peek();
    return token.kind === "punctuation" && token.value === value;
  }

  private node<T extends { readonly start: number; readonly end: number }>(fields: T): T & { readonly source: string } {
    // Assigning onto the literal is much cheaper than spreading it into a new object.
    (fields as { source?: string }).source = this.text.slice(fields.start, fields.end);
    return fields as T & { readonly source: string };
  }

  private countLogicalOperand(): void {
    this.logicalOperands += 1;
    if (this.logicalOperands > maxLogicalOperands) {
      this.fail(`too many && / || operands (more than ${maxLogicalOperands}): split the condition`, this.peek().start);
    }
  }

  private parseOr(): Expression {
    let left = this.parseAnd();
    while (this.isOperator("||")) {
      this.take();
      this.countLogicalOperand();
      const right = this.parseAnd();
      left = this.node({ kind: "logical" as const, operator: "||" as const, left, right, start: left.start, end: right.end });
    }
    return left;
  }

  private parseAnd(): Expression {
    let left = this.parseComparison();
    while (this.isOperator("&&")) {
      this.take();
      this.countLogicalOperand();
      const right = this.parseComparison();
      left = this.node({ kind: "logical" as const, operator: "&&" as const, left, right, start: left.start, end: right.end });
    }
    return left;
  }

  private parseComparison(): Expression {
    const left = this.parseOperand();
    const token = this.peek();
    if (token.kind !== "operator" || !comparisonOperators.has(token.value)) return left;
    this.take();
    const right = this.parseOperand();
    const after = this.peek();
    if (after.kind === "operator" && comparisonOperators.has(after.value)) this.unexpected(after);
    return this.node({
      kind: "comparison" as const,
      operator: token.value as ComparisonOperator,
      left,
      right,
      start: left.start,
      end: right.end,
    });
  }

  private parseOperand(): Expression {
    const token = this.take();
    switch (token.kind) {
      case "string":
      case "number":
        return this.node({ kind: "literal" as const, value: token.value, start: token.start, end: token.end });
      case "identifier":
        return this.parseIdentifierOperand(token);
      case "end":
        return this.fail(`expected a value before ${describeToken(token)}`, token.start);
      default:
        if (token.kind === "punctuation" && token.value === "(") this.unexpected(token);
        return this.fail(`expected a value (path, literal or function call), found ${describeToken(token)}`, token.start);
    }
  }

  private parseIdentifierOperand(token: ExpressionToken & { kind: "identifier" }): Expression {
    const word = token.value;
    if (forbiddenWords.has(word)) {
      this.fail(`\`${word}\` is not allowed in expressions`, token.start);
    }
    if (word === "true" || word === "false" || word === "null") {
      const value = word === "null" ? null : word === "true";
      return this.node({ kind: "literal" as const, value, start: token.start, end: token.end });
    }
    if (this.isPunctuation("(")) return this.parseCall(token);
    return this.parsePath(token);
  }

  private parseCall(callee: ExpressionToken & { kind: "identifier" }): CallExpression {
    this.take();
    this.callDepth += 1;
    if (this.callDepth > maxCallDepth) {
      this.fail(`function calls nest more than ${maxCallDepth} deep`, callee.start);
    }
    const args: Expression[] = [];
    if (!this.isPunctuation(")")) {
      while (true) {
        args.push(this.parseOr());
        if (this.isPunctuation(",")) {
          this.take();
          if (this.isPunctuation(")")) this.fail("trailing `,` in argument list", this.peek().start);
          continue;
        }
        break;
      }
    }
    const close = this.take();
    this.callDepth -= 1;
    if (!(close.kind === "punctuation" && close.value === ")")) {
      this.fail(`expected \`,\` or \`)\` in the arguments of ${callee.value}(), found ${describeToken(close)}`, close.start);
    }
    if (this.isPunctuation(".") || this.isPunctuation("[")) {
      this.fail(`cannot read a property of a function result: ${callee.value}(…) is a value, not a path`, this.peek().start);
    }
    if (this.isPunctuation("(")) this.fail("cannot call the result of a function call", this.peek().start);
    return this.node({ kind: "call" as const, callee: callee.value, arguments: args, start: callee.start, end: close.end });
  }

  private parsePath(root: ExpressionToken & { kind: "identifier" }): PathExpression {
    const segments: ExpressionPathSegment[] = [];
    let end = root.end;
    while (true) {
      if (this.isPunctuation(".")) {
        this.take();
        const name = this.take();
        // The tokenizer always yields a name after `.` (or fails), so this is the only shape.
        if (name.kind !== "name") this.fail("expected a property name after `.`", name.start);
        segments.push(name.value);
        end = name.end;
        continue;
      }
      if (this.isPunctuation("[")) {
        this.take();
        const key = this.take();
        if (key.kind === "string") segments.push(key.value);
        else if (key.kind === "number" && /^[0-9]+$/.test(this.text.slice(key.start, key.end))) segments.push(key.value);
        else this.fail(`expected an index [digits] or a quoted key ["key"], found ${describeToken(key)}`, key.start);
        const close = this.take();
        if (!(close.kind === "punctuation" && close.value === "]")) {
          this.fail(`expected \`]\`, found ${describeToken(close)}`, close.start);
        }
        end = close.end;
        continue;
      }
      break;
    }
    if (this.isPunctuation("(")) {
      const source = this.text.slice(root.start, end);
      this.fail(
        segments.length === 0
          ? `\`${source}(\` is a function call`
          : `method calls are not allowed (\`${source}(…)\`): use a function such as len(x), lower(s)`,
        this.peek().start,
      );
    }
    return this.node({ kind: "path" as const, root: root.value, segments, start: root.start, end });
  }
}

/** Parses tokens that end with an `end` token into one expression. */
export function parseExpressionTokens(text: string, tokens: readonly ExpressionToken[]): Expression {
  return new ExpressionParser(text, tokens).parse();
}

/** Parses a bare expression (no braces), e.g. `steps.check.output.ok === true`. */
export function parseExpression(source: string): Expression {
  const { tokens } = tokenizeExpression({ text: source, start: 0, closedByBraces: false });
  return parseExpressionTokens(source, tokens);
}
