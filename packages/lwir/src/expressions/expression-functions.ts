import { canonicalJson, hmacSha256Digest, LittleWorkflowError, sha256Digest } from "@little-stack/canonical";

/** A function of the expression language: its arity and, for eager functions, its body. */
export type ExpressionFunction = {
  readonly name: string;
  readonly minArguments: number;
  /** `Infinity` for variadic functions. */
  readonly maxArguments: number;
  readonly signature: string;
};

/** Thrown by a function body on a wrong argument type; the evaluator turns it into `expression.type_error`. */
export class ExpressionFunctionTypeError extends LittleWorkflowError {
  constructor(message: string) {
    super("expression.type_error", message);
  }
}

export const expressionFunctions: Readonly<Record<string, ExpressionFunction>> = Object.freeze({
  coalesce: { name: "coalesce", minArguments: 2, maxArguments: Infinity, signature: "coalesce(a, b, …)" },
  len: { name: "len", minArguments: 1, maxArguments: 1, signature: "len(x)" },
  lower: { name: "lower", minArguments: 1, maxArguments: 1, signature: "lower(s)" },
  upper: { name: "upper", minArguments: 1, maxArguments: 1, signature: "upper(s)" },
  json: { name: "json", minArguments: 1, maxArguments: 1, signature: "json(x)" },
  date: { name: "date", minArguments: 1, maxArguments: 1, signature: "date(x)" },
  sha256: { name: "sha256", minArguments: 1, maxArguments: Infinity, signature: "sha256(x, …)" },
  hmac: { name: "hmac", minArguments: 2, maxArguments: 2, signature: "hmac(key, data)" },
});

export function lookupExpressionFunction(name: string): ExpressionFunction | undefined {
  return Object.hasOwn(expressionFunctions, name) ? expressionFunctions[name] : undefined;
}

/** "exactly 1 argument", "at least 2 arguments", "1 to 3 arguments". */
export function describeArity(fn: ExpressionFunction): string {
  const plural = (count: number): string => `${count} argument${count === 1 ? "" : "s"}`;
  if (fn.minArguments === fn.maxArguments) return `exactly ${plural(fn.minArguments)}`;
  if (fn.maxArguments === Infinity) return `at least ${plural(fn.minArguments)}`;
  return `${fn.minArguments} to ${plural(fn.maxArguments)}`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function jsonText(value: unknown, what: string): string {
  try {
    return canonicalJson(value);
  } catch (error) {
    throw new ExpressionFunctionTypeError(`${what} is not plain JSON (${(error as Error).message})`);
  }
}

/** Bodies of the eager functions (coalesce is lazy and lives in the evaluator). */
export const eagerFunctionBodies: Readonly<Record<string, (args: readonly unknown[]) => unknown>> = Object.freeze({
  // Code points, not UTF-16 units: the same count JSON Schema's minLength/maxLength use.
  len: ([value]: readonly unknown[]) => {
    if (typeof value === "string") return [...value].length;
    if (Array.isArray(value)) return value.length;
    if (typeof value === "object" && value !== null) return Object.keys(value).length;
    throw new ExpressionFunctionTypeError(`len() needs a string, array or object, got ${typeName(value)}`);
  },
  lower: ([value]: readonly unknown[]) => {
    if (typeof value !== "string") throw new ExpressionFunctionTypeError(`lower() needs a string, got ${typeName(value)}`);
    return value.toLowerCase();
  },
  upper: ([value]: readonly unknown[]) => {
    if (typeof value !== "string") throw new ExpressionFunctionTypeError(`upper() needs a string, got ${typeName(value)}`);
    return value.toUpperCase();
  },
  json: ([value]: readonly unknown[]) => jsonText(value, "the argument of json()"),
  date: ([value]: readonly unknown[]) => {
    if (typeof value !== "string" && typeof value !== "number") {
      throw new ExpressionFunctionTypeError(`date() needs a date string or epoch milliseconds, got ${typeName(value)}`);
    }
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      throw new ExpressionFunctionTypeError(`date() cannot read ${JSON.stringify(value)} as a date`);
    }
    return date.toISOString();
  },
  // One argument hashes that value; several hash the array of them, so sha256(a, b) != sha256(a) + b.
  sha256: (args: readonly unknown[]) => {
    const value = args.length === 1 ? args[0] : [...args];
    jsonText(value, "the argument of sha256()");
    return sha256Digest(value);
  },
  hmac: ([key, data]: readonly unknown[]) => {
    if (typeof key !== "string" || key.length === 0) {
      throw new ExpressionFunctionTypeError(`hmac() needs a non-empty string key, got ${typeName(key)}`);
    }
    const message = typeof data === "string" ? data : jsonText(data, "the data of hmac()");
    return hmacSha256Digest(key, message);
  },
});
