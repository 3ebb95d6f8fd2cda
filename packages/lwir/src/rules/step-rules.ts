import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { LWIR_STEP_TYPES } from "../types.js";
import { hasField, isIntegerInRange, isRecord, listOf, ownField, unknownKeys, type JsonRecord } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import { stepIdProblem, type LwirRuleContext, type StepEntry } from "./rule-context.js";
import { resolveStepId } from "./step-resolution.js";

const stepFields = new Set(LWIR_FIELDS.step);

/** Allowed `with` fields of the step types whose `with` problems are `step.invalid`. */
const plainWithFields: Readonly<Record<string, ReadonlySet<string>>> = {
  "ai.generate": new Set(LWIR_FIELDS.aiGenerateWith),
  "tool.call": new Set(LWIR_FIELDS.toolCallWith),
  decision: new Set(LWIR_FIELDS.decisionWith),
};

/** lwir.md §2 common fields: shape, id, uses, needs, sensitive, maxVisits, retry, onFailure. */
export function checkStepRules(context: LwirRuleContext, findings: FindingList): void {
  for (const entry of context.allSteps()) {
    const record = entry.record;
    if (record === undefined) {
      findings.report({
        code: "step.invalid",
        path: entry.path,
        message: "A step must be an object with id, uses and the fields of its type.",
      });
      continue;
    }
    checkFields(entry, record, findings);
    checkId(entry, record, findings);
    checkUses(entry, record, findings);
    checkNeeds({ context, entry, record, findings });
    checkScalars(entry, record, findings);
    if (hasField(record, "retry")) checkRetry(entry, ownField(record, "retry"), findings);
    if (hasField(record, "onFailure")) checkOnFailure(entry, ownField(record, "onFailure"), findings);
    checkPlainWith(entry, record, findings);
  }
}

function checkFields(entry: StepEntry, record: JsonRecord, findings: FindingList): void {
  for (const key of unknownKeys(record, stepFields)) {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, key],
      message: `Unknown step field \`${shown(key)}\`: steps have only ${listOf(stepFields)}. Remove it.`,
    });
  }
  if (hasField(record, "steps") && entry.uses !== undefined && entry.uses !== "parallel") {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, "steps"],
      message: `Only a parallel step has a body (\`steps\`); this is a ${entry.uses} step. Remove \`steps\`.`,
    });
  }
}

function checkId(entry: StepEntry, record: JsonRecord, findings: FindingList): void {
  const id = ownField(record, "id");
  const problem = stepIdProblem(id);
  if (problem !== undefined) {
    findings.report({
      code: "step.invalid_id",
      path: [...entry.path, "id"],
      message: `Step id ${problem} (got ${describeValue(id)}).`,
    });
  } else if (entry.isDuplicate) {
    const first = entry.scope.byId.get(entry.id ?? "");
    findings.report({
      code: "step.duplicate_id",
      path: [...entry.path, "id"],
      message: `Step id "${shown(entry.id ?? "?")}" is already used by step ${first?.index ?? "?"} of the same list; ids are unique within their list.`,
    });
  }
}

function checkUses(entry: StepEntry, record: JsonRecord, findings: FindingList): void {
  if (entry.uses !== undefined) return;
  findings.report({
    code: "step.invalid_type",
    path: [...entry.path, "uses"],
    message: `Step \`uses\` must be one of ${listOf(LWIR_STEP_TYPES)} (got ${describeValue(ownField(record, "uses"))}).`,
  });
}

function checkNeeds(options: {
  context: LwirRuleContext;
  entry: StepEntry;
  record: JsonRecord;
  findings: FindingList;
}): void {
  const { context, entry, record, findings } = options;
  if (!hasField(record, "needs")) return;
  const needs = ownField(record, "needs");
  const path = [...entry.path, "needs"];
  if (!Array.isArray(needs)) {
    findings.report({
      code: "step.invalid_needs",
      path,
      message: `needs must be an array of sibling step ids (got ${describeValue(needs)}).`,
    });
    return;
  }
  const seen = new Set<string>();
  needs.forEach((need, index) => {
    const needPath = [...path, index];
    if (typeof need !== "string" || need.length === 0) {
      findings.report({
        code: "step.invalid_needs",
        path: needPath,
        message: `needs entries must be non-empty step ids (got ${describeValue(need)}).`,
      });
    } else if (seen.has(need)) {
      findings.report({ code: "step.invalid_needs", path: needPath, message: `"${shown(need)}" is listed twice in needs.` });
    } else if (need === entry.id) {
      findings.report({ code: "step.invalid_needs", path: needPath, message: `A step cannot need itself ("${shown(need)}").` });
    } else {
      const resolution = resolveStepId({ context, from: entry, stepId: need });
      const known = resolution.kind === "sibling" || resolution.kind === "enclosing_needs";
      if (!known && resolution.kind !== "invalid_id") {
        findings.report({
          code: "step.missing_dependency",
          path: needPath,
          message: missingNeedMessage(entry, need),
        });
      }
    }
    if (typeof need === "string") seen.add(need);
  });
}

function missingNeedMessage(entry: StepEntry, need: string): string {
  if (entry.scope.parallel === undefined) {
    return `needs names "${shown(need)}", which is not a step of this list.`;
  }
  return `needs names "${shown(need)}", which is neither a step of this parallel body nor in the needs of the parallel step "${shown(entry.scope.parallel.id ?? "?")}".`;
}

function checkScalars(entry: StepEntry, record: JsonRecord, findings: FindingList): void {
  if (hasField(record, "sensitive") && typeof ownField(record, "sensitive") !== "boolean") {
    findings.report({
      code: "step.sensitive_must_be_boolean",
      path: [...entry.path, "sensitive"],
      message: `sensitive must be true or false (got ${describeValue(ownField(record, "sensitive"))}).`,
    });
  }
  if (hasField(record, "maxVisits") && !isIntegerInRange(ownField(record, "maxVisits"), { min: 1, max: 100 })) {
    findings.report({
      code: "step.max_visits_out_of_range",
      path: [...entry.path, "maxVisits"],
      message: `maxVisits must be an integer from 1 to 100 (got ${describeValue(ownField(record, "maxVisits"))}).`,
    });
  }
}

function checkRetry(entry: StepEntry, retry: unknown, findings: FindingList): void {
  const path: JsonPathSegment[] = [...entry.path, "retry"];
  const report = (at: readonly JsonPathSegment[], message: string): void =>
    findings.report({ code: "step.invalid_retry", path: at, message });
  if (!isRecord(retry)) {
    report(path, `retry must be an object { maxAttempts, backoff? } (got ${describeValue(retry)}).`);
    return;
  }
  for (const key of unknownKeys(retry, new Set(LWIR_FIELDS.retry))) {
    report([...path, key], `Unknown retry field \`${shown(key)}\`: retry has only maxAttempts and backoff.`);
  }
  if (!isIntegerInRange(ownField(retry, "maxAttempts"), { min: 1, max: 10 })) {
    report(
      [...path, "maxAttempts"],
      `retry.maxAttempts must be an integer from 1 to 10 (got ${describeValue(ownField(retry, "maxAttempts"))}).`,
    );
  }
  if (hasField(retry, "backoff")) checkBackoff({ backoff: ownField(retry, "backoff"), path: [...path, "backoff"], report });
}

function checkBackoff(options: {
  backoff: unknown;
  path: readonly JsonPathSegment[];
  report: (at: readonly JsonPathSegment[], message: string) => void;
}): void {
  const { backoff, path, report } = options;
  if (!isRecord(backoff)) {
    report(path, `retry.backoff must be an object { initialMs, factor, maxMs } (got ${describeValue(backoff)}).`);
    return;
  }
  for (const key of unknownKeys(backoff, new Set(LWIR_FIELDS.retryBackoff))) {
    report([...path, key], `Unknown backoff field \`${shown(key)}\`: backoff has only initialMs, factor and maxMs.`);
  }
  const milliseconds = { min: 0, max: Number.MAX_SAFE_INTEGER };
  const initialMs = ownField(backoff, "initialMs");
  const maxMs = ownField(backoff, "maxMs");
  const factor = ownField(backoff, "factor");
  if (!isIntegerInRange(initialMs, milliseconds)) {
    report([...path, "initialMs"], `backoff.initialMs must be a non-negative integer (got ${describeValue(initialMs)}).`);
  }
  if (typeof factor !== "number" || !(factor >= 1)) {
    report([...path, "factor"], `backoff.factor must be a number >= 1 (got ${describeValue(factor)}).`);
  }
  if (!isIntegerInRange(maxMs, milliseconds)) {
    report([...path, "maxMs"], `backoff.maxMs must be a non-negative integer (got ${describeValue(maxMs)}).`);
  } else if (typeof initialMs === "number" && maxMs < initialMs) {
    report([...path, "maxMs"], `backoff.maxMs (${maxMs}) must be >= backoff.initialMs (${initialMs}).`);
  }
}

function checkOnFailure(entry: StepEntry, onFailure: unknown, findings: FindingList): void {
  const path = [...entry.path, "onFailure"];
  if (!isRecord(onFailure)) {
    findings.report({
      code: "step.invalid",
      path,
      message: `onFailure must be an object { fixer? } (got ${describeValue(onFailure)}).`,
    });
    return;
  }
  for (const key of unknownKeys(onFailure, new Set(LWIR_FIELDS.onFailure))) {
    findings.report({
      code: "step.invalid",
      path: [...path, key],
      message: `Unknown onFailure field \`${shown(key)}\`: onFailure has only \`fixer\`.`,
    });
  }
}

/** `with` of ai.generate, tool.call and decision (code.run and parallel have their own codes). */
function checkPlainWith(entry: StepEntry, record: JsonRecord, findings: FindingList): void {
  const allowed = entry.uses === undefined ? undefined : plainWithFields[entry.uses];
  if (allowed === undefined) return;
  const withValue = ownField(record, "with");
  if (!isRecord(withValue)) {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, "with"],
      message: `A ${entry.uses} step needs \`with\`, an object with ${listOf(allowed)} (got ${describeValue(withValue)}).`,
    });
    return;
  }
  for (const key of unknownKeys(withValue, allowed)) {
    findings.report({
      code: "step.invalid",
      path: [...entry.path, "with", key],
      message: `Unknown \`with\` field \`${shown(key)}\` for a ${entry.uses} step: it takes ${listOf(allowed)}.`,
    });
  }
}
