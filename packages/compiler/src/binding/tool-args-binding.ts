import { formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import { createSchemaValidator, parseTemplateString, schemaAtPath, stepOutputSchema } from "@little-stack/lwir";
import type { BindingFinding, BindingTarget } from "./binding-target.js";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON types a schema allows (integer counted as number), undefined when unrestricted. */
function typesOf(schema: unknown): Set<string> | undefined {
  if (!isRecord(schema)) return undefined;
  const raw = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (raw === undefined) return undefined;
  return new Set(raw.map((type) => (type === "integer" ? "number" : String(type))));
}

type ParsedArgument = { readonly kind: "text" } | { readonly kind: "whole"; readonly schema: unknown } | { readonly kind: "literal" };

/** How an argument string resolves: plain text, text with templates, or one typed template. */
function parseArgument(value: string, scope: Scope): ParsedArgument {
  let parsed: ReturnType<typeof parseTemplateString>;
  try {
    parsed = parseTemplateString(value);
  } catch {
    return { kind: "literal" }; // a syntax error is validateLwir's finding
  }
  if (parsed.kind === "literal") return { kind: "literal" };
  if (parsed.kind !== "whole") return { kind: "text" };
  const expression = parsed.expression;
  return { kind: "whole", schema: expression.kind === "path" ? schemaOfPath(expression.root, expression.segments, scope) : undefined };
}

/** The schema a path reads, when the document says (input, item, steps.X.output / lastOutput). */
function schemaOfPath(root: string, segments: readonly (string | number)[], scope: Scope): unknown {
  const [first, second, ...rest] = segments;
  if (root === "input") return verdictSchema(scope.inputSchema, segments);
  if (root === "item") return verdictSchema(scope.itemSchema, segments);
  if (root === "steps" && typeof first === "string" && (second === "output" || second === "lastOutput")) {
    return verdictSchema(stepOutputSchema(scope.steps.get(first)), rest);
  }
  return undefined;
}

function verdictSchema(schema: unknown, segments: readonly (string | number)[]): unknown {
  if (schema === undefined) return undefined;
  const verdict = schemaAtPath(schema, segments);
  return verdict.kind === "ok" ? verdict.schema : undefined;
}

type Scope = {
  readonly inputSchema: unknown;
  readonly itemSchema: unknown;
  readonly steps: ReadonlyMap<string, unknown>;
  /** One validator per schema object for the whole pass: a long plan checks the same tool field at every step. */
  readonly validatorOf: (schema: unknown) => ReturnType<typeof createSchemaValidator>;
};

/** Why `value` (an argument as written in the plan) cannot fit `schema`, or undefined. */
function argumentProblem(value: unknown, schema: unknown, scope: Scope): string | undefined {
  const parsed = typeof value === "string" ? parseArgument(value, scope) : { kind: "literal" as const };
  if (parsed.kind !== "literal") {
    const expected = typesOf(schema);
    if (expected === undefined) return undefined;
    const whole = parsed.kind === "whole";
    const produced = parsed.kind === "whole" ? typesOf(parsed.schema) : new Set(["string"]);
    if (produced === undefined) return undefined;
    const extra = [...produced].filter((type) => !expected.has(type));
    if (extra.length === 0) return undefined;
    return `${whole ? "resolves to" : "is text with templates, so it resolves to"} ${extra.join(" or ")}, but the tool takes ${[...expected].join(" or ")}`;
  }
  if (isRecord(value) || Array.isArray(value)) return undefined; // nested templates: checked when the call is made
  const checked = scope.validatorOf(schema)(value);
  return checked.valid ? undefined : `is ${JSON.stringify(value)}, which the tool's input schema rejects (${checked.errors.map((error) => error.message).join("; ")})`;
}

function checkToolCall(options: { step: Json; path: JsonPathSegment[]; toolSchema: unknown; scope: Scope; findings: BindingFinding[] }): void {
  const { step, path, toolSchema, scope, findings } = options;
  if (!isRecord(toolSchema)) return;
  const withBlock = isRecord(step.with) ? step.with : {};
  // The tool receives the step input: `input`, else `with.args`, else the workflow input (the item in a body).
  const [given, at, implicit] = Object.hasOwn(step, "input")
    ? [step.input, [...path, "input"], false]
    : Object.hasOwn(withBlock, "args")
      ? [withBlock.args, [...path, "with", "args"], false]
      : [undefined, [...path, "with"], true];
  const required = Array.isArray(toolSchema.required) ? toolSchema.required.filter((key): key is string => typeof key === "string") : [];
  const properties = isRecord(toolSchema.properties) ? toolSchema.properties : {};
  const problems: string[] = [];
  if (implicit) {
    const passed = scope.itemSchema ?? scope.inputSchema;
    const passedRequired = new Set(isRecord(passed) && Array.isArray(passed.required) ? passed.required : []);
    const passedProperties = isRecord(passed) && isRecord(passed.properties) ? Object.keys(passed.properties) : [];
    const missing = required.filter((key) => !passedRequired.has(key));
    if (missing.length > 0) problems.push(`it passes the ${scope.itemSchema === undefined ? "workflow input" : "branch item"}, which need not have ${missing.map((key) => `"${key}"`).join(", ")}`);
    const extra = toolSchema.additionalProperties === false ? passedProperties.filter((key) => !Object.hasOwn(properties, key)) : [];
    if (extra.length > 0) problems.push(`it passes the ${scope.itemSchema === undefined ? "workflow input" : "branch item"}, whose ${extra.map((key) => `"${key}"`).join(", ")} the tool does not take`);
  } else if (isRecord(given)) {
    for (const key of required) if (!Object.hasOwn(given, key)) problems.push(`"${key}" is required by the tool but not given`);
    for (const [key, value] of Object.entries(given)) {
      if (!Object.hasOwn(properties, key)) {
        if (toolSchema.additionalProperties === false) problems.push(`the tool does not take "${key}"`);
        continue;
      }
      const problem = argumentProblem(value, properties[key], scope);
      if (problem !== undefined) problems.push(`"${key}" ${problem}`);
    }
  }
  if (problems.length === 0) return;
  findings.push({
    severity: "error",
    code: "binding.tool_args_mismatch",
    path: formatJsonPath(at),
    message: `Step "${String(step.id)}" calls tool "${String(withBlock.tool)}" with arguments that cannot fit its input schema: ${problems.join("; ")}. Write with.args as an object with exactly the tool's fields (input: ${JSON.stringify(toolSchema)}).`,
  });
}

function itemSchemaOf(parallel: Json, scope: Scope): unknown {
  const items = isRecord(parallel.with) ? parallel.with.items : undefined;
  if (typeof items !== "string") return undefined;
  const parsed = parseArgument(items, scope);
  const arraySchema = parsed.kind === "whole" ? parsed.schema : undefined;
  return isRecord(arraySchema) ? arraySchema.items : undefined;
}

/**
 * `binding.tool_args_mismatch`: a `tool.call` whose arguments, as the plan writes them, cannot fit
 * the tool's input schema — a required field missing, a field it does not take, a literal it
 * rejects, a template whose type (known from the schemas) is not what it takes, or the implicit
 * workflow input / branch item when that cannot have the required fields. Values known only at run
 * time (open schemas, nested templates) are left to the registry's check at call time.
 */
export function toolArgsFindings(lwir: Json, target: BindingTarget): BindingFinding[] {
  const toolSchemas = new Map((target.tools ?? []).map((tool) => [tool.name, tool.inputSchema]));
  const findings: BindingFinding[] = [];
  const validators = new Map<unknown, ReturnType<typeof createSchemaValidator>>();
  const validatorOf = (schema: unknown): ReturnType<typeof createSchemaValidator> => {
    let validator = validators.get(schema);
    if (validator === undefined) validators.set(schema, (validator = createSchemaValidator(schema as never)));
    return validator;
  };
  const walk = (steps: unknown, at: JsonPathSegment[], itemSchema: unknown, outer: ReadonlyMap<string, unknown>) => {
    const list = Array.isArray(steps) ? steps : [];
    const byId = new Map<string, unknown>(outer);
    for (const step of list) if (isRecord(step) && typeof step.id === "string") byId.set(step.id, step);
    const scope: Scope = { inputSchema: target.inputSchema, itemSchema, steps: byId, validatorOf };
    list.forEach((step, index) => {
      if (!isRecord(step)) return;
      const withBlock = isRecord(step.with) ? step.with : {};
      if (step.uses === "tool.call" && typeof withBlock.tool === "string" && toolSchemas.has(withBlock.tool)) {
        checkToolCall({ step, path: [...at, index], toolSchema: toolSchemas.get(withBlock.tool), scope, findings });
      }
      if (step.uses === "parallel") walk(step.steps, [...at, index, "steps"], itemSchemaOf(step, scope), byId);
    });
  };
  walk(lwir.steps, ["steps"], undefined, new Map());
  return findings;
}
