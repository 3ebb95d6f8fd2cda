import { ExpressionSyntaxError } from "./expression-errors.js";

export type ExpressionToken =
  | { readonly kind: "string"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "number"; readonly value: number; readonly start: number; readonly end: number }
  /** A root or function name: `input`, `coalesce`, `true`. */
  | { readonly kind: "identifier"; readonly value: string; readonly start: number; readonly end: number }
  /** A property name after `.`: may contain hyphens and start with a digit (`steps.fetch-2`). */
  | { readonly kind: "name"; readonly value: string; readonly start: number; readonly end: number }
  | {
      readonly kind: "punctuation";
      readonly value: "." | "[" | "]" | "(" | ")" | ",";
      readonly start: number;
      readonly end: number;
    }
  | {
      readonly kind: "operator";
      readonly value: "===" | "!==" | "==" | "!=" | ">=" | "<=" | ">" | "<" | "&&" | "||";
      readonly start: number;
      readonly end: number;
    }
  /** `}}` closing the template, or the end of the text when tokenizing a bare expression. */
  | { readonly kind: "end"; readonly value: "}}" | ""; readonly start: number; readonly end: number };

const identifierStartPattern = /[\p{L}_$]/u;
const identifierPartPattern = /[\p{L}\p{N}_$]/u;
const namePartPattern = /[\p{L}\p{N}_$-]/u;

// ASCII fast paths: the Unicode patterns only run for non-ASCII characters.
function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}
function isIdentifierStart(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return isAsciiLetter(code) || code === 95 || code === 36;
  return identifierStartPattern.test(text[index]!);
}
function isIdentifierPart(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return isAsciiLetter(code) || isDigitCode(code) || code === 95 || code === 36;
  return identifierPartPattern.test(text[index]!);
}
function isNamePart(text: string, index: number): boolean {
  if (index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128) return isAsciiLetter(code) || isDigitCode(code) || code === 95 || code === 36 || code === 45;
  return namePartPattern.test(text[index]!);
}
function isWhitespace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/u.test(text[index]!);
}
const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

const operators = ["===", "!==", "==", "!=", ">=", "<=", "&&", "||", ">", "<"] as const;

/** Characters and sequences of JavaScript the language leaves out, with the reason given to the author. */
function rejectionFor(text: string, index: number): string | undefined {
  const char = text[index];
  const next = text[index + 1];
  if (char === ";") return "`;` is not allowed: an expression is a single value, not statements";
  if (char === "`") return "backticks are not allowed: use '…' or \"…\" string literals";
  if (char === "=" && next === ">") return "`=>` is not allowed: expressions cannot define functions";
  if (char === "=") return "`=` is not allowed: expressions cannot assign; compare with ===";
  if (char === "!") return "`!` is not supported: compare with === false instead";
  if (char === "?" && next === ".") return "`?.` is not supported: use coalesce(path, fallback)";
  if (char === "?" && next === "?") return "`??` is not supported: use coalesce(a, b)";
  if (char === "?" || char === ":") return `\`${char}\` is not supported: there is no ternary operator`;
  if (char === "&" || char === "|") return `\`${char}\` is not supported: use && or ||`;
  if (char !== undefined && "+-*/%".includes(char)) return `arithmetic (\`${char}\`) is not supported`;
  if (char === "{") return "`{` is not allowed inside an expression: object literals are not supported";
  if (char === "}") return "a single `}` is not allowed inside an expression: close the template with }}";
  return undefined;
}

export type TokenizeResult = {
  readonly tokens: readonly ExpressionToken[];
  /** Offset just after the closing `}}` (or the text length for a bare expression). */
  readonly end: number;
};

/**
 * Tokenizes from `start` until the closing `}}` (when `closedByBraces`) or the end of the text.
 * Offsets in tokens are positions in the whole text.
 */
export function tokenizeExpression(options: {
  readonly text: string;
  readonly start: number;
  readonly closedByBraces: boolean;
  /** Offset of the opening `{{`, for the "never closed" message. */
  readonly openedAt?: number;
}): TokenizeResult {
  const { text, closedByBraces } = options;
  const tokens: ExpressionToken[] = [];
  const fail = (problem: string, offset: number): never => {
    throw new ExpressionSyntaxError({ problem, text, offset });
  };
  let index = options.start;
  while (true) {
    const char = text[index];
    if (char === undefined) {
      if (closedByBraces) fail("`{{` is never closed with `}}`", options.openedAt ?? options.start);
      tokens.push({ kind: "end", value: "", start: index, end: index });
      return { tokens, end: index };
    }
    if (isWhitespace(text, index)) {
      index += 1;
      continue;
    }
    if (char === "}" && text[index + 1] === "}") {
      if (!closedByBraces) fail("unexpected `}}`", index);
      tokens.push({ kind: "end", value: "}}", start: index, end: index + 2 });
      return { tokens, end: index + 2 };
    }
    if (char === "{" && text[index + 1] === "{") fail("`{{` cannot be nested inside a template", index);
    const previous = tokens[tokens.length - 1];
    if (previous?.kind === "punctuation" && previous.value === ".") {
      let end = index;
      while (isNamePart(text, end)) end += 1;
      if (end === index) fail("expected a property name after `.`", index);
      tokens.push({ kind: "name", value: text.slice(index, end), start: index, end });
      index = end;
      continue;
    }
    if (char === "'" || char === '"') {
      const parsed = readString(text, index, fail);
      tokens.push({ kind: "string", value: parsed.value, start: index, end: parsed.end });
      index = parsed.end;
      continue;
    }
    if (isDigitCode(text.charCodeAt(index)) || (char === "-" && isDigitCode(text.charCodeAt(index + 1)))) {
      numberPattern.lastIndex = index;
      const match = numberPattern.exec(text);
      const end = index + (match?.[0].length ?? 0);
      if (match === null || isNamePart(text, end) || text[end] === ".") {
        let stop = end;
        while (isNamePart(text, stop) || text[stop] === ".") stop += 1;
        fail(`invalid number \`${text.slice(index, stop)}\``, index);
      }
      tokens.push({ kind: "number", value: Number(match![0]), start: index, end });
      index = end;
      continue;
    }
    if (isIdentifierStart(text, index)) {
      let end = index + 1;
      while (end < text.length && isIdentifierPart(text, end)) end += 1;
      tokens.push({ kind: "identifier", value: text.slice(index, end), start: index, end });
      index = end;
      continue;
    }
    if (".[](),".includes(char)) {
      tokens.push({
        kind: "punctuation",
        value: char as "." | "[" | "]" | "(" | ")" | ",",
        start: index,
        end: index + 1,
      });
      index += 1;
      continue;
    }
    const operator = operators.find((candidate) => text.startsWith(candidate, index));
    // `=>` must win over `==`/`>=` style matches only when it is the arrow itself.
    if (operator !== undefined && !(char === "=" && text[index + 1] === ">")) {
      tokens.push({ kind: "operator", value: operator, start: index, end: index + operator.length });
      index += operator.length;
      continue;
    }
    fail(rejectionFor(text, index) ?? `unexpected character \`${char}\``, index);
  }
}

const escapes: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

function readString(
  text: string,
  start: number,
  fail: (problem: string, offset: number) => never,
): { value: string; end: number } {
  const quote = text[start];
  let value = "";
  let index = start + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === quote) return { value, end: index + 1 };
    if (char === "\\") {
      const escaped = text[index + 1];
      if (escaped === "u") {
        const hex = text.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid \\u escape in string literal", index);
        value += String.fromCharCode(Number.parseInt(hex, 16));
        index += 6;
        continue;
      }
      const replacement = escaped === undefined ? undefined : escapes[escaped];
      if (replacement === undefined) fail(`invalid escape \`\\${escaped ?? ""}\` in string literal`, index);
      value += replacement;
      index += 2;
      continue;
    }
    value += char;
    index += 1;
  }
  return fail("unterminated string literal", start);
}
