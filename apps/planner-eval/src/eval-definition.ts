import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolRegistry, WorkflowDefinition } from "@little-stack/workflow";

/**
 * The model for a role: `"planner"`, `"orchestrator"` or an execution slot id. Every role maps to
 * the same endpoint (the planner and the workers are all played by the model under evaluation).
 */
export type EvalModels = (role: string) => LanguageModelV3;

/** What one evaluation runs: a workflow through runWorkflow, or an orchestration through runOrchestration. */
export type EvalCase =
  | {
      readonly kind: "workflow";
      readonly workflow: WorkflowDefinition<any, any>;
      readonly input: unknown;
      readonly tools?: ToolRegistry;
    }
  | {
      readonly kind: "orchestration";
      readonly workflows: readonly WorkflowDefinition<any, any>[];
      readonly orchestratorSystem: string;
      readonly input: unknown;
      readonly tools?: ToolRegistry;
      readonly maxConcurrentSubRuns?: number;
    };

/** What `check` receives for an orchestration: its answer and what the sub-runs produced. */
export type OrchestrationOutcome = {
  readonly answer: unknown;
  readonly plannedVersions: number;
  readonly subRuns: readonly { readonly input: unknown; readonly status: string; readonly output?: unknown }[];
};

export type CheckResult = { readonly correct: boolean; readonly problems: readonly string[] };

/**
 * One evaluation: a definition a developer could have written (schemas, model slots with
 * descriptions, deterministic tools with input and output schemas, a planner `system`), an input,
 * and `check`, which says whether the output is what a reader would call correct — deterministic
 * parts exactly, model-written text loosely.
 */
export type EvalDefinition = {
  /** kebab-case, unique; `--only <name>`. */
  readonly name: string;
  /** 1 = easiest. */
  readonly level: number;
  /** The step types and patterns this definition needs. */
  readonly covers: string;
  build(models: EvalModels): EvalCase;
  check(output: unknown): CheckResult;
};

/** A check from a list of problems (`undefined` entries are checks that passed). */
export function verdict(problems: readonly (string | undefined | false)[]): CheckResult {
  const found = problems.filter((problem): problem is string => typeof problem === "string");
  return { correct: found.length === 0, problems: found };
}
