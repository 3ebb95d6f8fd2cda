import { LittleWorkflowError, canonicalJson, canonicalSnapshotOf } from "@little-stack/canonical";
import { FindingList } from "./findings.js";
import { checkCodeRunRules } from "./rules/code-run-rules.js";
import { checkDecisionRules } from "./rules/decision-rules.js";
import { checkDocumentRules } from "./rules/document-rules.js";
import { checkExpressionRules } from "./rules/expression-rules.js";
import { checkFixerRules } from "./rules/fixer-rules.js";
import { checkGraphRules } from "./rules/graph-rules.js";
import { isRecord } from "./rules/json-shape.js";
import { checkModelsToolsRules } from "./rules/models-tools-rules.js";
import { checkOutputRules } from "./rules/output-rules.js";
import { checkParallelRules } from "./rules/parallel-rules.js";
import { checkPathRules } from "./rules/path-rules.js";
import { LwirRuleContext } from "./rules/rule-context.js";
import { checkStepRules } from "./rules/step-rules.js";
import { keepOptionalReads } from "./optional-reads.js";
import type { ValidationResult } from "./types.js";

export type RuleFamily = (context: LwirRuleContext, findings: FindingList) => void;

/** Rule families in report order; each reports every problem it sees, independently. */
const ruleFamilies: readonly (readonly [string, RuleFamily])[] = [
  ["document", checkDocumentRules],
  ["steps", checkStepRules],
  ["output", checkOutputRules],
  ["decision", checkDecisionRules],
  ["models-tools", checkModelsToolsRules],
  ["code-run", checkCodeRunRules],
  ["fixer", checkFixerRules],
  ["parallel", checkParallelRules],
  ["expressions", checkExpressionRules],
  ["paths", checkPathRules],
  ["graph", checkGraphRules],
];

function reasonOf(error: unknown): string {
  if (error instanceof RangeError) return "it is nested too deeply";
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unknown failure";
  }
}

function nonHashableMessage(error: unknown): string {
  const advice =
    "An LWIR document must be plain JSON: no undefined, functions, NaN or Infinity, bigint, cycles, class instances, accessors or sparse arrays.";
  if (LittleWorkflowError.is(error, "canonical.not_json")) return `The document cannot be hashed: ${error.message} ${advice}`;
  if (error instanceof RangeError) {
    return `The document cannot be hashed: it is nested too deeply to canonicalize. ${advice}`;
  }
  return `The document cannot be hashed: reading it failed (${reasonOf(error)}). ${advice}`;
}

/**
 * Validates an LWIR document against lwir.md §1–§4, §6 (static expression checks) and §7 (step
 * ids), returning every finding in one pass. Never throws, whatever `doc` is.
 */
export function validateLwir(doc: unknown): ValidationResult {
  // A canonicalSnapshot copy cannot change, so its verdict is kept with it: a fixed plan is
  // checked by defineWorkflow, the compiler and the runtime, and on a 10,000-step plan each full
  // check allocates ~100 MB. The caller gets its own findings array either way.
  const snapshot = canonicalSnapshotOf(doc);
  if (snapshot === undefined) return validateWithRuleFamilies({ doc, families: ruleFamilies });
  let verdict = snapshotVerdicts.get(snapshot);
  if (verdict === undefined) {
    verdict = validateWithRuleFamilies({ doc, families: ruleFamilies, whenValid: (context) => keepOptionalReads(snapshot, context) });
    snapshotVerdicts.set(snapshot, verdict);
  }
  return { valid: verdict.valid, findings: [...verdict.findings] } as ValidationResult;
}

const snapshotVerdicts = new WeakMap<object, ValidationResult>();

/**
 * The validation pipeline with its rule families as an input, so tests can prove that a crashing
 * family becomes an `lwir.internal_error` finding while the others still report. Not exported
 * from the package.
 */
export function validateWithRuleFamilies(options: {
  readonly doc: unknown;
  readonly families: readonly (readonly [string, RuleFamily])[];
  /** Given the rule context once every family has run without a finding (its throw is ignored: the work is redone on demand). */
  readonly whenValid?: (context: LwirRuleContext) => void;
}): ValidationResult {
  const findings = new FindingList();
  try {
    let snapshot: unknown;
    try {
      // The rules walk a fresh parse of the canonical form: plain data only, no getters or
      // proxies, nothing that can change or throw while it is being read, and exactly the
      // content that gets hashed.
      // (A canonicalSnapshot copy gives its kept text at once; parsed, its findings come in the
      // same order as for any document.)
      snapshot = JSON.parse(canonicalJson(options.doc));
    } catch (error) {
      findings.report({ code: "lwir.non_hashable", path: [], message: nonHashableMessage(error) });
      return { valid: false, findings: findings.toArray() };
    }
    if (!isRecord(snapshot)) {
      findings.report({
        code: "schema.invalid",
        path: [],
        message: "An LWIR document must be a JSON object with apiVersion, kind, metadata, input, output and steps.",
      });
      return { valid: false, findings: findings.toArray() };
    }
    const context = new LwirRuleContext(snapshot);
    for (const [name, family] of options.families) {
      try {
        family(context, findings);
      } catch (error) {
        findings.report({
          code: "lwir.internal_error",
          path: [],
          message: `The ${name} rules could not finish (${reasonOf(error)}); this is a validator bug, please report it. Other findings are still listed.`,
        });
      }
    }
    if (findings.size === 0 && options.whenValid !== undefined) {
      try {
        options.whenValid(context);
      } catch {
        // Only a cache fill: whoever needs it computes it again.
      }
    }
  } catch (error) {
    findings.report({
      code: "lwir.internal_error",
      path: [],
      message: `The validator failed unexpectedly (${reasonOf(error)}); this is a validator bug, please report it.`,
    });
  }
  const list = findings.toArray();
  return list.length === 0 ? { valid: true, findings: [] } : { valid: false, findings: list };
}
