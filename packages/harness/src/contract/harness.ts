import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import type { HarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import type { HarnessEventSink } from "../events/harness-event-sink.js";
import type { ErrorEnvelope } from "./error-envelope.js";
import type { LwirStep } from "./lwir-step.js";
import type { HarnessManifest } from "./manifests.js";
import type {
  BashTool,
  HarnessRuntimeMount,
  MemoryMount,
  ScratchMount,
  SkillDescriptor,
  WorkflowBashCapabilities,
} from "./mounts.js";
import type { OuterLoopContext, WorkflowDefinitionSnapshot } from "./workflow-definition-snapshot.js";

/** The harness contract (seed 003). A custom harness implements `run` against these types alone. */
export type RunId = string;

export type Harness = {
  /**
   * Names the harness in manifests and capability checks (`"my-harness@1.0.0"`): a run resumed
   * under a harness with another id fails with capability drift. Change it whenever the harness's
   * behaviour changes. Absent: `"custom"`.
   */
  readonly id?: string;
  run(task: HarnessTask, ctx: HarnessContext): Promise<HarnessResult>;
};

export type PlanTask = {
  readonly kind: "plan";
  readonly workflowSnapshot: WorkflowDefinitionSnapshot;
  readonly input: unknown;
  readonly outerLoopContext?: OuterLoopContext;
};

export type OrchestrateTask = {
  readonly kind: "orchestrate";
  readonly available: readonly WorkflowDefinitionSnapshot[];
  readonly input: unknown;
};

export type ExecuteStepTask = {
  readonly kind: "execute_step";
  readonly step: LwirStep;
  readonly stepInput: unknown;
  readonly stepContext: { readonly stepPath: string; readonly visitIndex: number };
};

export type FixStepTask = {
  readonly kind: "fix_step";
  readonly step: LwirStep;
  readonly stepInput: unknown;
  readonly originalAttemptError: ErrorEnvelope;
  readonly priorFixAttempts: number;
};

export type HarnessTask = PlanTask | OrchestrateTask | ExecuteStepTask | FixStepTask;

export type HarnessTaskKind = HarnessTask["kind"];

export const harnessTaskKinds: readonly HarnessTaskKind[] = ["plan", "orchestrate", "execute_step", "fix_step"];

/** A reference to an artifact already written (and fsynced) by the world. */
export type ArtifactRef = {
  readonly id: string;
  readonly name?: string;
  readonly contentType?: string;
  readonly sha256?: string;
  readonly size?: number;
};

export type HarnessResult =
  | { readonly kind: "plan"; readonly lwir: unknown }
  | { readonly kind: "orchestrate"; readonly output: unknown }
  | { readonly kind: "execute_step"; readonly output: unknown; readonly artifactRefs: readonly ArtifactRef[] }
  | { readonly kind: "fix_step"; readonly output: unknown; readonly fixedSource: string; readonly attempts: number }
  | { readonly kind: "delegate_to_default" };

export type HarnessRole =
  | "planner"
  | "orchestrator"
  | "worker.ai-generate"
  | "worker.code-run"
  | "worker.tool-call"
  | "fixer";

export const harnessRoles: readonly HarnessRole[] = [
  "planner",
  "orchestrator",
  "worker.ai-generate",
  "worker.code-run",
  "worker.tool-call",
  "fixer",
];

export type HarnessScope = {
  readonly runId: RunId;
  readonly logDir: string;
  readonly role: HarnessRole;
  readonly parentRunId?: RunId;
};

/** A model slot resolved to a live AI SDK model. */
export type ResolvedModel = {
  readonly slotId: string;
  readonly provider: string;
  readonly modelId: string;
  readonly model: LanguageModelV3;
};

/** Where session events are made durable. */
export type WorkflowHarnessDurabilitySink = HarnessEventSink;

/** Optional observer of events after they are stored (progress output, tracing). */
export type WorkflowHarnessTraceSink = {
  onEvents(events: readonly HarnessEventEnvelope[]): void;
};

export type HarnessContext = {
  readonly scope: HarnessScope;
  readonly model: ResolvedModel;
  readonly system?: string;
  readonly tools: ToolSet;
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
  readonly skills: readonly SkillDescriptor[];
  readonly mounts: readonly HarnessRuntimeMount[];
  readonly bashCapabilities?: WorkflowBashCapabilities;
  readonly durability: WorkflowHarnessDurabilitySink;
  readonly trace?: WorkflowHarnessTraceSink;
  readonly abortSignal: AbortSignal;
  readonly bash?: BashTool;
  /** Validates and appends the session's events; the runtime and the compiler always give one. */
  readonly recorder?: HarnessEventRecorder;
  /**
   * The session's manifest (Planner/Orchestrator/Worker/FixerManifest), recorded in
   * `harness.session.started` and compared on resume. The runtime and the compiler always give
   * it; `requireManifest(task, ctx)` returns it or fails with a clear error.
   */
  readonly manifest?: HarnessManifest;
  /**
   * Names the durable session within the run; the same on resume (`step:<stepPath>@attempt_<n>`
   * from the runtime). `sessionKeyFor(task, ctx)` returns it, or the default for the task.
   */
  readonly sessionKey?: string;
  /** The step path the session works for (fix_step; execute_step tasks carry it in `stepContext`). */
  readonly stepPath?: string;
  /** Which visit of a looped step this session runs (0 for the first). */
  readonly visitIndex?: number;
};
