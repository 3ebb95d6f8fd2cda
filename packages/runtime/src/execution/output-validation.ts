import { canonicalJson, CanonicalJsonError, sha256Digest } from "@little-stack/canonical";
import { createSchemaValidator, type LwirStep } from "@little-stack/lwir";

export type OutputCheck =
  | { readonly valid: true; readonly outputMode: string; readonly schemaHash: string; readonly canonical: string }
  | { readonly valid: false; readonly outputMode: string; readonly problem: string };

const schemaHashes = new WeakMap<object, string>();

/** `sha256` of the step's output mode (a decision: of `{ mode: "decision" }`). Cached per step. */
export function schemaHashOf(step: LwirStep): string {
  const cached = schemaHashes.get(step);
  if (cached !== undefined) return cached;
  const hash = sha256Digest(step.uses === "decision" ? { mode: "decision" } : (step.output ?? null));
  schemaHashes.set(step, hash);
  return hash;
}

function modeOf(step: LwirStep): string {
  return step.uses === "decision" ? "decision" : (step.output?.mode ?? "json");
}

/** Checks an output against the step's output mode (lwir.md §3); also that it is plain JSON. */
export function checkStepOutput(step: LwirStep, output: unknown): OutputCheck {
  const outputMode = modeOf(step);
  let canonical: string;
  try {
    canonical = canonicalJson(output);
  } catch (error) {
    const problem = error instanceof CanonicalJsonError ? error.message : String(error);
    return { valid: false, outputMode, problem: `the output is not plain JSON (${problem})` };
  }
  const problem = modeProblem(step, output);
  if (problem !== undefined) return { valid: false, outputMode, problem };
  return { valid: true, outputMode, schemaHash: schemaHashOf(step), canonical };
}

function modeProblem(step: LwirStep, output: unknown): string | undefined {
  if (step.uses === "decision") {
    const chosen = (output as { chosen?: unknown } | null)?.chosen;
    return typeof output === "object" && output !== null && typeof chosen === "string" ? undefined : 'a decision must return { "chosen": "<step id or end>" }';
  }
  const mode = step.output;
  switch (mode.mode) {
    case "text":
      return typeof output === "string" ? undefined : `output mode "text" expects a string, got ${describe(output)}`;
    case "choice":
      return typeof output === "string" && mode.values.includes(output)
        ? undefined
        : `output mode "choice" expects one of ${mode.values.map((value) => JSON.stringify(value)).join(", ")}, got ${truncate(JSON.stringify(output) ?? String(output))}`;
    case "object":
      if (typeof output !== "object" || output === null || Array.isArray(output)) return `output mode "object" expects an object, got ${describe(output)}`;
      return schemaProblem(mode.schema, output);
    case "array":
      if (!Array.isArray(output)) return `output mode "array" expects an array, got ${describe(output)}`;
      return schemaProblem(mode.schema, output);
    case "json":
      return mode.schema === undefined ? undefined : schemaProblem(mode.schema, output);
  }
}

// createSchemaValidator keys its cache by the schema's digest; keying by the schema object here
// skips hashing it again for every output of the same step.
const validators = new WeakMap<object, ReturnType<typeof createSchemaValidator>>();

function validatorFor(schema: Parameters<typeof createSchemaValidator>[0]): ReturnType<typeof createSchemaValidator> {
  if (typeof schema !== "object" || schema === null) return createSchemaValidator(schema);
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = createSchemaValidator(schema);
    validators.set(schema, validator);
  }
  return validator;
}

function schemaProblem(schema: Parameters<typeof createSchemaValidator>[0], value: unknown): string | undefined {
  const result = validatorFor(schema)(value);
  if (result.valid) return undefined;
  return `it does not match the output schema: ${result.errors.slice(0, 5).map((error) => `${error.path} ${error.message}`).join("; ")}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${truncate(JSON.stringify(value) ?? String(value))}`;
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
