import type { JsonPathSegment } from "@little-stack/canonical";
import { LWIR_STEP_TYPES, type LwirStepType } from "../types.js";
import {
  analyzeTemplatesAt,
  checkSchemaAt,
  type SchemaProblem,
  type TemplateUse,
} from "./external-checks.js";
import { isIntegerInRange, isRecord, ownField, type JsonRecord } from "./json-shape.js";

export type NeedsEntry = { readonly id: string; readonly index: number };

/** What the rules know about one step, read once from the snapshot. */
export type StepEntry = {
  readonly index: number;
  readonly path: readonly JsonPathSegment[];
  readonly record: JsonRecord | undefined;
  /** The id when it is syntactically valid, else undefined. */
  readonly id: string | undefined;
  readonly uses: LwirStepType | undefined;
  /** True for the second and later steps that reuse an id of their list. */
  readonly isDuplicate: boolean;
  /** The string entries of `needs` with their index (shape problems are reported elsewhere). */
  readonly needs: readonly NeedsEntry[];
  /** False when `needs` is present but not an array: rules that depend on it stay silent. */
  readonly needsKnown: boolean;
  /** Effective `maxVisits` (1 when absent or invalid). */
  readonly maxVisits: number;
  /** False when `maxVisits` is present but invalid: the cycle rule does not hold it against the step. */
  readonly maxVisitsKnown: boolean;
  readonly scope: StepScope;
};

/** One list of steps: the top-level `steps`, or the body of a parallel step. */
export type StepScope = {
  readonly path: readonly JsonPathSegment[];
  readonly entries: StepEntry[];
  /** Valid ids to their first step. */
  readonly byId: Map<string, StepEntry>;
  /** Ids of this list that are strings but invalid: names matching them are not reported again. */
  readonly invalidIds: Set<string>;
  /** The parallel step owning this body; undefined for the top-level list. */
  readonly parallel: StepEntry | undefined;
};

const stepTypes: ReadonlySet<string> = new Set(LWIR_STEP_TYPES);

/** Why `id` is not a valid step id, or undefined when it is (lwir.md §2 and §7). */
export function stepIdProblem(id: unknown): string | undefined {
  if (typeof id !== "string") return "must be a string";
  if (id.length === 0) return "must not be empty";
  if (/[.[\]]/.test(id)) return "must not contain `.`, `[` or `]` (step-path syntax)";
  if (id.includes("@attempt_")) return "must not contain `@attempt_` (attempt-path syntax)";
  // Ids are printed for people (progress, reports, the inspector): a CR, ESC or OSC in one could
  // rewrite the terminal line that shows it.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return "must not contain control characters (C0, DEL or C1)";
  if (id === "end") return 'must not be "end" (the decision sentinel that ends the scope)';
  return undefined;
}

/**
 * The allowlist `permissions[key]`: empty when permissions or the list is absent (nothing is
 * allowed), undefined when either is malformed, so steps are not all reported as disallowed on
 * top of the one permissions finding.
 */
function allowlist(permissions: unknown, key: string): ReadonlySet<string> | undefined {
  if (permissions === undefined) return new Set();
  if (!isRecord(permissions)) return undefined;
  const list = ownField(permissions, key);
  if (list === undefined) return new Set();
  if (!Array.isArray(list)) return undefined;
  return new Set(list.filter((entry) => typeof entry === "string"));
}

function readEntry(scope: StepScope, raw: unknown, index: number): StepEntry {
  const record = isRecord(raw) ? raw : undefined;
  const rawId = record === undefined ? undefined : ownField(record, "id");
  const id = stepIdProblem(rawId) === undefined ? (rawId as string) : undefined;
  const rawUses = record === undefined ? undefined : ownField(record, "uses");
  const uses = typeof rawUses === "string" && stepTypes.has(rawUses) ? (rawUses as LwirStepType) : undefined;
  const rawNeeds = record === undefined ? undefined : ownField(record, "needs");
  const needs: NeedsEntry[] = [];
  if (Array.isArray(rawNeeds)) {
    for (let needIndex = 0; needIndex < rawNeeds.length; needIndex += 1) {
      const need: unknown = rawNeeds[needIndex];
      if (typeof need === "string") needs.push({ id: need, index: needIndex });
    }
  }
  const rawMaxVisits = record === undefined ? undefined : ownField(record, "maxVisits");
  const maxVisitsKnown = rawMaxVisits === undefined || isIntegerInRange(rawMaxVisits, { min: 1, max: 100 });
  const maxVisits = isIntegerInRange(rawMaxVisits, { min: 1, max: 100 }) ? rawMaxVisits : 1;
  const isDuplicate = id !== undefined && scope.byId.has(id);
  const entry: StepEntry = {
    index,
    path: [...scope.path, index],
    record,
    id,
    uses,
    isDuplicate,
    needs,
    needsKnown: rawNeeds === undefined || Array.isArray(rawNeeds),
    maxVisits,
    maxVisitsKnown,
    scope,
  };
  if (id !== undefined && !isDuplicate) scope.byId.set(id, entry);
  if (id === undefined && typeof rawId === "string") scope.invalidIds.add(rawId);
  return entry;
}

function readScope(options: {
  list: readonly unknown[];
  path: readonly JsonPathSegment[];
  parallel: StepEntry | undefined;
}): StepScope {
  const scope: StepScope = {
    path: options.path,
    entries: [],
    byId: new Map(),
    invalidIds: new Set(),
    parallel: options.parallel,
  };
  options.list.forEach((raw, index) => scope.entries.push(readEntry(scope, raw, index)));
  return scope;
}

function cacheKey(schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema) ?? "undefined";
  } catch {
    return undefined;
  }
}

/** Shared, read-once view of a document that the rule families work from. */
export class LwirRuleContext {
  readonly document: JsonRecord;
  /** The top-level list first, then each parallel body in document order. */
  readonly scopes: readonly StepScope[];
  /** Undefined when `permissions` is malformed (then allowlist checks are skipped). */
  readonly allowedModels: ReadonlySet<string> | undefined;
  readonly allowedTools: ReadonlySet<string> | undefined;
  readonly #templates = new Map<StepEntry, TemplateUse[]>();
  readonly #schemaProblems = new Map<string, SchemaProblem[]>();

  constructor(document: JsonRecord) {
    this.document = document;
    const permissions = ownField(document, "permissions");
    this.allowedModels = allowlist(permissions, "models");
    this.allowedTools = allowlist(permissions, "tools");
    const steps = ownField(document, "steps");
    const scopes: StepScope[] = [];
    if (Array.isArray(steps)) {
      const top = readScope({ list: steps, path: ["steps"], parallel: undefined });
      scopes.push(top);
      for (const entry of top.entries) {
        const body = entry.record === undefined ? undefined : ownField(entry.record, "steps");
        // Only top-level parallels own a body scope: nested parallels are rejected, not walked.
        if (entry.uses === "parallel" && Array.isArray(body)) {
          scopes.push(readScope({ list: body, path: [...entry.path, "steps"], parallel: entry }));
        }
      }
    }
    this.scopes = scopes;
  }

  *allSteps(): Generator<StepEntry> {
    for (const scope of this.scopes) yield* scope.entries;
  }

  /** Strings with templates in the step's `with` and `input`, analyzed once per step. */
  templatesOf(entry: StepEntry): readonly TemplateUse[] {
    let uses = this.#templates.get(entry);
    if (uses === undefined) {
      uses = analyzeStep(entry);
      this.#templates.set(entry, uses);
    }
    return uses;
  }

  /** Checks a schema against the supported subset, reusing the answer for identical schemas. */
  checkSchema(schema: unknown, path: readonly JsonPathSegment[]): SchemaProblem[] {
    const key = cacheKey(schema);
    let relative = key === undefined ? undefined : this.#schemaProblems.get(key);
    if (relative === undefined) {
      relative = checkSchemaAt({ schema, path: [] });
      if (key !== undefined) this.#schemaProblems.set(key, relative);
    }
    return relative.map((problem) => ({ path: [...path, ...problem.path], message: problem.message }));
  }
}

/** Appends without spreading, which would overflow the stack for very long lists. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

function analyzeStep(entry: StepEntry): TemplateUse[] {
  const record = entry.record;
  if (record === undefined) return [];
  const insideBody = entry.scope.parallel !== undefined;
  const uses: TemplateUse[] = [];
  const withValue = ownField(record, "with");
  if (isRecord(withValue) && (entry.uses === "code.run" || entry.uses === "parallel")) {
    for (const key of Object.keys(withValue)) {
      // code.run files are source code pinned by hash, never templated.
      if (entry.uses === "code.run" && key === "files") continue;
      // itemKey is evaluated per branch, over `item`.
      const insideParallelBody = insideBody || (entry.uses === "parallel" && key === "itemKey");
      append(uses, analyzeTemplatesAt({ value: withValue[key], path: [...entry.path, "with", key], insideParallelBody }));
    }
  } else if (withValue !== undefined) {
    append(uses, analyzeTemplatesAt({ value: withValue, path: [...entry.path, "with"], insideParallelBody: insideBody }));
  }
  const input = ownField(record, "input");
  if (input !== undefined) {
    append(uses, analyzeTemplatesAt({ value: input, path: [...entry.path, "input"], insideParallelBody: insideBody }));
  }
  return uses;
}
