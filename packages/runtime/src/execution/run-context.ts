import type { Harness, ResolvedModel, ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { LwirDocument } from "@little-stack/lwir";
import type { RunLog } from "./run-log.js";
import type { RunSkills, RunStorage } from "./session-resources.js";
import type { Semaphore } from "./semaphore.js";

/** Everything the scheduler of one run invocation shares. */
export type RunContext = {
  readonly runId: string;
  readonly workflowVersionId: string;
  readonly workflowDefinitionHash: string;
  readonly lwir: LwirDocument;
  readonly input: unknown;
  readonly world: World;
  readonly log: RunLog;
  readonly harness: Harness;
  readonly defaultHarness: Harness | undefined;
  readonly harnessId: string;
  /** The tools the workflow may use (its `permissions.tools` picked from the registry). */
  readonly tools: ToolRegistry;
  readonly allowedToolsHash: string;
  readonly models: ReadonlyMap<string, ResolvedModel>;
  /** The world's `maxConcurrentSteps` across every group of the run. */
  readonly stepSlots: { run<T>(work: () => Promise<T>): Promise<T> };
  readonly signal: AbortSignal;
  /** Why `signal` aborted, once it has. */
  abortCause(): "timeout" | "cancelled" | undefined;
  /** `runs/<runId>`, or `runs/<pipelineRunId>/sub-runs/<runId>` for a pipeline's sub-run. */
  readonly logDir: string;
  /** Where the run's sessions find memory stores and scratch. */
  readonly storage: RunStorage;
  /** The worker skills, resolved when the run invocation started. */
  readonly skills: RunSkills;
};

export type { Semaphore };
