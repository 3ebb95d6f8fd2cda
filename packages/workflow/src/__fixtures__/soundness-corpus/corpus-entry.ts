import type { ScriptedTurn } from "@little-stack/testing";
import type { RunFailedCauseCode, RunResult, ToolRegistry } from "../../index.js";

/** Where a corpus plan comes from. */
export type CorpusOrigin =
  /** Written for the corpus to reach a step type, mode or pattern. */
  | "hand-written"
  /** A `<!-- example: valid -->` block of the built-in lwir skill (packages/harness/skills/lwir). */
  | "skill-example"
  /** An LWIR file of the repository (packages/lwir/src/__fixtures__, apps/…). */
  | "repo-fixture"
  /** Written the way a capable model would, from the planner brief and the lwir skill only. */
  | "model-written"
  /** Accepted by the planner during a model evaluation (apps/planner-eval), added by hand. */
  | "model-evaluation";

/** A model slot of the definition: answered by `createSchemaAnsweringModel` unless `script` is given. */
export type CorpusModelSlot = {
  readonly id: string;
  readonly description?: string;
  /** A fixed script instead (a fixer, which must call `try_fix`). */
  readonly script?: readonly ScriptedTurn[];
};

/** What `defineWorkflow` gets, minus the models (built fresh per run) and the planner. */
export type CorpusDefinition = {
  readonly id: string;
  readonly description?: string;
  /** A Zod schema or a JSON Schema. */
  readonly input: unknown;
  /** A schema (object output) or an output mode (`{ mode: "text" }`, `{ mode: "json", schema }` …). */
  readonly output: unknown;
  readonly models: readonly CorpusModelSlot[];
  /** A fresh registry per run (tools may keep per-run state: one that fails once). */
  readonly tools?: () => ToolRegistry;
};

/** A run that must fail, and why: a failure the data decides (a tool that fails on purpose). */
export type ExpectedFailure = {
  readonly causeCode: Exclude<RunFailedCauseCode, "runtime_config_error" | "step_schema_error">;
  readonly failedStepPath?: string;
};

/**
 * One plan of the soundness corpus: a definition, a plan for it and a run input. A plan with
 * `apiVersion` is a fixed plan (`defineWorkflow({ plan })`); a plan without it — only `steps`,
 * perhaps a few more fields — is submitted by a scripted planner in one `submit_workflow` call, so
 * the compiler completes it (`delivery` overrides the choice).
 */
export type CorpusEntry = {
  readonly name: string;
  readonly origin: CorpusOrigin;
  /** What the entry is for, in words (the coverage test reads the plans themselves). */
  readonly covers: string;
  readonly definition: CorpusDefinition;
  readonly plan: Readonly<Record<string, unknown>>;
  readonly input: unknown;
  readonly delivery?: "fixed" | "planner";
  readonly expect?: ExpectedFailure;
  /** Checks on a completed run beyond "it completed" (the output a reader would expect, a fixer that ran …). */
  readonly check?: (result: RunResult) => void;
  /** For entries read from a file: where. */
  readonly source?: string;
};

/** Fixed plan unless the plan is a planner submission (no apiVersion) or the entry says otherwise. */
export function deliveryOf(entry: CorpusEntry): "fixed" | "planner" {
  return entry.delivery ?? (Object.hasOwn(entry.plan, "apiVersion") ? "fixed" : "planner");
}
