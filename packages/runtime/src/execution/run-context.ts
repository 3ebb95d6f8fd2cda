import type { Harness, ResolvedModel, ToolRegistry } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import type { LwirDocument } from "@little-stack/lwir";
import type { RunLog } from "./run-log.js";
import type { RunSkills, RunStorage } from "./session-resources.js";
import type { Cancellation } from "./cancellation.js";
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
  /**
   * The world's `maxConcurrentSteps`: one slot per step attempt in flight, across every list and
   * parallel branch of the run.
   */
  readonly stepSlots: Semaphore;
  /**
   * What cancels the work this context is handed to: the run's own node at the top, a list's
   * node inside a scope, an attempt's node inside a step (its signal is the harness's).
   */
  readonly cancellation: Cancellation;
  /** `runs/<runId>`, or `runs/<pipelineRunId>/sub-runs/<runId>` for a pipeline's sub-run. */
  readonly logDir: string;
  /** Where the run's sessions find memory stores and scratch. */
  readonly storage: RunStorage;
  /** The worker skills, resolved when the run invocation started. */
  readonly skills: RunSkills;
};

