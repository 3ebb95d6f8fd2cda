import { formatJsonPath, type JsonPathSegment } from "@little-stack/canonical";
import type { LwirFinding } from "./types.js";

/**
 * Every finding code `validateLwir` can return (lwir.md §8, plus `lwir.internal_error` for the
 * last-resort guard). The README's "Validation rules" table says which rule emits which code.
 */
export const LWIR_FINDING_CODES = [
  "lwir.non_hashable",
  "lwir.internal_error",
  "schema.invalid",
  "schema.unimplemented_field",
  "terminal.ambiguous",
  "step.invalid",
  "step.invalid_id",
  "step.duplicate_id",
  "step.invalid_needs",
  "step.missing_dependency",
  "step.undeclared_dependency",
  "step.invalid_type",
  "step.sensitive_must_be_boolean",
  "step.max_visits_out_of_range",
  "step.invalid_retry",
  "output.invalid",
  "output.missing_schema",
  "output.missing_values",
  "output.invalid_values",
  "output.invalid_metadata",
  "output.invalid_for_step",
  "decision.default_required",
  "decision.case_invalid",
  "decision.target_not_in_scope",
  "decision.output_not_allowed",
  "expression.invalid",
  "expression.invalid_path",
  "expression.unguarded_back_edge_read",
  "model.missing",
  "model.disallowed",
  "tool.missing",
  "tool.disallowed",
  "code.invalid_config",
  "code.missing_entrypoint",
  "code.invalid_entrypoint",
  "code.missing_files",
  "code.invalid_file_path",
  "code.invalid_file",
  "code.invalid_file_hash",
  "code.missing_sandbox",
  "code.invalid_sandbox",
  "fixer.invalid_config",
  "fixer.unsupported_step",
  "fixer.model.missing",
  "fixer.model.disallowed",
  "fixer.max_attempts_invalid",
  "fixer.system_missing",
  "parallel.nested_unsupported",
  "parallel.invalid",
  "parallel.invalid_items",
  "parallel.invalid_item_key",
  "parallel.invalid_cardinality",
  "parallel.invalid_branches",
  "parallel.invalid_concurrency",
  "parallel.invalid_failure_mode",
  "parallel.invalid_fan_in",
  "parallel.fan_in_output_step_invalid",
  "parallel.missing_steps",
  "lwir.output_ambiguous_for_multi_visit",
  "lwir.decision_target_referenced_by_needs",
  "lwir.invalid_cycle",
] as const;

export type LwirFindingCode = (typeof LWIR_FINDING_CODES)[number];

export type FindingReport = {
  readonly code: LwirFindingCode;
  readonly path: readonly JsonPathSegment[];
  readonly message: string;
};

/**
 * Collects findings in the order rules report them. A rule reports a given code at a given path
 * at most once, so one broken rule is one finding even when it is noticed twice.
 */
export class FindingList {
  readonly #findings: LwirFinding<LwirFindingCode>[] = [];
  readonly #seen = new Set<string>();

  report(finding: FindingReport): void {
    const path = formatJsonPath(finding.path);
    const key = `${finding.code}\u0000${path}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const message =
      finding.message.length > maxMessageLength ? `${finding.message.slice(0, maxMessageLength - 1)}…` : finding.message;
    this.#findings.push({ severity: "error", code: finding.code, path, message });
  }

  get size(): number {
    return this.#findings.length;
  }

  toArray(): readonly LwirFinding<LwirFindingCode>[] {
    return [...this.#findings];
  }
}

/** A user-supplied name (key, id, model…) shortened for a message; paths keep the full text. */
export function shown(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const maxMessageLength = 2_000;

/** A short, printable rendering of any value for messages (never throws, never huge). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 60 ? `${JSON.stringify(value.slice(0, 57))}…` : JSON.stringify(value);
    case "number":
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}
