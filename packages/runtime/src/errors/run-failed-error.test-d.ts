import type { UsageTotals } from "@little-stack/models";
import { expectTypeOf } from "vitest";
import type { EventRecord, ArtifactRecord } from "../events/runtime-event-types.js";
import type { RunResult } from "../execution/run-result.js";
import type { FailedRunResult, RunFailedCauseCode, RunFailedError } from "./run-failed-error.js";

// RunFailedError carries the seed 000 fields.
expectTypeOf<RunFailedError["runId"]>().toEqualTypeOf<string>();
expectTypeOf<RunFailedError["workflowVersionId"]>().toEqualTypeOf<string>();
expectTypeOf<RunFailedError["failedStepPath"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<RunFailedError["causeCode"]>().toEqualTypeOf<RunFailedCauseCode>();
expectTypeOf<RunFailedError["result"]>().toEqualTypeOf<FailedRunResult | undefined>();
expectTypeOf<RunFailedError["outerLoopId"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<RunFailedError["lastCycleOutput"]>().toEqualTypeOf<unknown>();
expectTypeOf<RunFailedError>().toMatchTypeOf<Error>();

// Exactly the ten cause codes of runtime.md § Errors.
expectTypeOf<RunFailedCauseCode>().toEqualTypeOf<
  | "input_schema_error"
  | "planner_validation_exhausted"
  | "capability_drift"
  | "runtime_config_error"
  | "step_schema_error"
  | "step_failed"
  | "max_visits_exceeded"
  | "timeout"
  | "cancelled"
  | "outer_loop_exhausted"
>();

// RunResult is the seed 000 shape, generic in its output.
expectTypeOf<RunResult<{ score: number }>>().toEqualTypeOf<{
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly status: "completed";
  readonly output: { score: number };
  readonly usage: UsageTotals;
  readonly events: readonly EventRecord[];
  readonly artifacts: readonly ArtifactRecord[];
}>();
