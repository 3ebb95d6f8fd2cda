import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { reportSchemaProblems } from "./document-rules.js";
import { hasField, isRecord, listOf, ownField, unknownKeys, type JsonRecord } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import type { LwirRuleContext, StepEntry } from "./rule-context.js";
import { resolveStepId } from "./step-resolution.js";

const modeFields: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(LWIR_FIELDS.outputText),
  object: new Set(LWIR_FIELDS.outputObject),
  array: new Set(LWIR_FIELDS.outputArray),
  choice: new Set(LWIR_FIELDS.outputChoice),
  json: new Set(LWIR_FIELDS.outputJson),
};
const modes = Object.keys(modeFields);
const fanInEnvelopeRequired = ["itemKey", "status", "artifacts"];
const fanInEnvelopeResult = ["output", "outputRef", "error"];

/** lwir.md §3 output modes on every non-decision step, and the parallel fan-in envelope. */
export function checkOutputRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    if (entry.record === undefined || entry.uses === undefined || entry.uses === "decision") continue;
    const path: JsonPathSegment[] = [...entry.path, "output"];
    if (!hasField(entry.record, "output")) {
      findings.report({
        code: "output.invalid",
        path,
        message: `A ${entry.uses} step needs \`output\`, an output mode (${listOf(modes)}).`,
      });
      continue;
    }
    const output = ownField(entry.record, "output");
    if (!isRecord(output)) {
      findings.report({
        code: "output.invalid",
        path,
        message: `output must be an object { mode, … } (got ${describeValue(output)}).`,
      });
      continue;
    }
    checkOutputMode({ context, entry, output, path, findings });
  }
  checkReferencedJsonOutputs(context, findings);
}

function checkOutputMode(options: {
  context: LwirRuleContext;
  entry: StepEntry;
  output: JsonRecord;
  path: JsonPathSegment[];
  findings: FindingList;
}): void {
  const { context, entry, output, path, findings } = options;
  const mode = ownField(output, "mode");
  for (const key of ["name", "description"]) {
    if (hasField(output, key) && typeof ownField(output, key) !== "string") {
      findings.report({
        code: "output.invalid_metadata",
        path: [...path, key],
        message: `output.${key} must be a string when present (got ${describeValue(ownField(output, key))}).`,
      });
    }
  }
  const allowed = typeof mode === "string" ? modeFields[mode] : undefined;
  if (allowed === undefined || !Object.prototype.hasOwnProperty.call(modeFields, mode as string)) {
    findings.report({
      code: "output.invalid",
      path: [...path, "mode"],
      message: `output.mode must be one of ${listOf(modes)} (got ${describeValue(mode)}).`,
    });
    return;
  }
  if (entry.uses === "parallel" && mode !== "array") {
    findings.report({
      code: "output.invalid_for_step",
      path: [...path, "mode"],
      message: `A parallel step's output.mode must be "array" (its output is the fan-in array); got "${String(mode)}".`,
    });
  }
  for (const key of unknownKeys(output, allowed)) {
    findings.report({
      code: "output.invalid",
      path: [...path, key],
      message: `\`${shown(key)}\` does not apply to output mode "${String(mode)}", which takes ${listOf(allowed)}.`,
    });
  }
  if (mode === "choice") {
    checkChoiceValues({ output, path, findings });
    return;
  }
  if (!allowed.has("schema")) return;
  if (!hasField(output, "schema")) {
    if (mode === "json") return;
    findings.report({
      code: "output.missing_schema",
      path: [...path, "schema"],
      message: `Output mode "${String(mode)}" needs output.schema, the JSON Schema of the ${String(mode)}.`,
    });
    return;
  }
  const schema = ownField(output, "schema");
  if (!reportSchemaProblems({ context, findings, schema, path: [...path, "schema"] })) return;
  if (mode === "object" || mode === "array") checkSchemaType({ schema, mode, path, findings });
  if (entry.uses === "parallel" && mode === "array") checkFanInEnvelope({ schema, path, findings });
}

function checkSchemaType(options: {
  schema: unknown;
  mode: "object" | "array";
  path: JsonPathSegment[];
  findings: FindingList;
}): void {
  const { schema, mode, path, findings } = options;
  if (!isRecord(schema) || !hasField(schema, "type") || ownField(schema, "type") === mode) return;
  findings.report({
    code: "output.invalid",
    path: [...path, "schema", "type"],
    message: `Output mode "${mode}" needs a schema of type "${mode}" (got ${describeValue(ownField(schema, "type"))}).`,
  });
}

function checkChoiceValues(options: { output: JsonRecord; path: JsonPathSegment[]; findings: FindingList }): void {
  const { output, path, findings } = options;
  const valuesPath = [...path, "values"];
  if (!hasField(output, "values")) {
    findings.report({
      code: "output.missing_values",
      path: valuesPath,
      message: 'Output mode "choice" needs output.values, the non-empty list of strings to choose from.',
    });
    return;
  }
  const values = ownField(output, "values");
  if (!Array.isArray(values) || values.length === 0) {
    findings.report({
      code: "output.invalid_values",
      path: valuesPath,
      message: `output.values must be a non-empty array of strings (got ${describeValue(values)}).`,
    });
    return;
  }
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (typeof value !== "string" || seen.has(value)) {
      findings.report({
        code: "output.invalid_values",
        path: [...valuesPath, index],
        message:
          typeof value === "string"
            ? `output.values lists "${shown(value)}" twice; choices are unique.`
            : `output.values entries must be strings (got ${describeValue(value)}).`,
      });
    }
    if (typeof value === "string") seen.add(value);
  });
}

/** The items of a parallel step's array must describe `{ itemKey, status, artifacts, output|outputRef|error }`. */
function checkFanInEnvelope(options: { schema: unknown; path: JsonPathSegment[]; findings: FindingList }): void {
  const { schema, path, findings } = options;
  const items = isRecord(schema) ? ownField(schema, "items") : undefined;
  const itemsPath = [...path, "schema", "items"];
  const problems: string[] = [];
  if (!isRecord(items)) {
    problems.push("items must be an object schema of the fan-in entry");
  } else {
    if (ownField(items, "type") !== "object") problems.push('items.type must be "object"');
    const required = ownField(items, "required");
    const requiredSet = new Set(Array.isArray(required) ? required : []);
    const missing = fanInEnvelopeRequired.filter((name) => !requiredSet.has(name));
    if (missing.length > 0) problems.push(`items.required must include ${listOf(missing)}`);
    const properties = ownField(items, "properties");
    const hasResult = isRecord(properties) && fanInEnvelopeResult.some((name) => hasField(properties, name));
    if (!hasResult) problems.push(`items.properties must declare at least one of ${listOf(fanInEnvelopeResult)}`);
  }
  if (problems.length === 0) return;
  findings.report({
    code: "output.invalid_for_step",
    path: isRecord(items) ? itemsPath : [...path, "schema"],
    message: `A parallel step's output schema must be an array of fan-in entries { itemKey, status, artifacts, output | outputRef | error }: ${problems.join("; ")}.`,
  });
}

/** lwir.md §3: a `json` step whose output another step references must declare a schema. */
function checkReferencedJsonOutputs(context: LwirRuleContext, findings: FindingList): void {
  const reported = new Set<StepEntry>();
  for (const entry of context.allSteps()) {
    for (const use of context.templatesOf(entry)) {
      for (const reference of use.stepReferences) {
        const resolution = resolveStepId({ context, from: entry, stepId: reference.stepId });
        if (resolution.kind === "missing" || resolution.kind === "invalid_id") continue;
        if (reported.has(resolution.target)) continue;
        const target = resolution.target;
        const output = target.record === undefined ? undefined : ownField(target.record, "output");
        if (!isRecord(output) || ownField(output, "mode") !== "json" || hasField(output, "schema")) continue;
        reported.add(target);
        findings.report({
          code: "output.missing_schema",
          path: [...target.path, "output", "schema"],
          message: `Step "${shown(target.id ?? "?")}" has output mode "json" without a schema, but ${formatRef(entry)} references its output; add output.schema.`,
        });
      }
    }
  }
}

function formatRef(entry: StepEntry): string {
  return entry.id === undefined ? "another step" : `step "${shown(entry.id)}"`;
}
