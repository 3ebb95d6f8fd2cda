import { workflowDefinitionReady, type WorkflowDefinition } from "@little-stack/authoring";
import { CanonicalJsonError, canonicalJson, sha256Digest, snapshotIfJson } from "@little-stack/canonical";
import {
  CapabilityDriftError,
  harnessEventSinkFromWorld,
  harnessSessionId,
  hashHarnessManifest,
  PlanNotSubmittedError,
  PlanRevisionsExhaustedError,
  workflowHarness,
  type HarnessResult,
  type ModelDelta,
  type OuterLoopContext,
  type PlannerManifest,
  type ToolRegistry,
  type WorkflowHarnessContext,
  type WorkflowHarnessTraceSink,
} from "@little-stack/harness";
import type { EventEnvelope, World } from "@little-stack/local-world";
import { runScratchLayout } from "@little-stack/memory";
import { createSchemaValidator, registerWorkflowVersion, validateLwir, type LwirDocument, type LwirFinding, type WorkflowVersion } from "@little-stack/lwir";
import type { ToolSet } from "ai";
import { bindingFindings } from "./binding/binding-pass.js";
import type { BindingTarget } from "./binding/binding-target.js";
import {
  CompileInputMismatchError,
  InvalidCompileOptionsError,
  PlannerValidationExhaustedError,
  RegisteredVersionMismatchError,
  WorkflowInputValidationError,
} from "./errors/compile-errors.js";
import type { OrchestrationRequest, OrchestrationRequestedPayload, WorkflowVersionRegisteredPayload } from "./events/compile-event-types.js";
import { CompileAppends } from "./events/compile-appends.js";
import { ValidationLog } from "./events/validation-events.js";
import { buildCompilerLock, type CompilerLock } from "./lock/compiler-lock.js";
import { jsonDiff } from "./manifest/json-diff.js";
import { computePlannerManifest, plannerBashCapabilitiesHash } from "./manifest/planner-manifest.js";
import { completeSubmission, type SubmissionDefaults } from "./planner/complete-submission.js";
import { checkPlanOnce } from "./planner/plan-verdicts.js";
import { preparePlannerSession } from "./planner/planner-session-context.js";
import {
  createWorkflowDefinitionSnapshot,
  workflowDefinitionHash as hashSnapshot,
  type CompilerWorkflowDefinitionSnapshot,
} from "./snapshot/create-workflow-definition-snapshot.js";
import { resolveWorkflowTools } from "./snapshot/resolve-workflow-tools.js";

export type CompileWorkflowOptions = {
  readonly world: World;
  /** The run the compile belongs to; its log receives every compile event. Required: it is the memoization key. */
  readonly runId: string;
  /** The tools the workflow's `tools` names resolve against (plus the definition's inline tools). */
  readonly tools?: ToolRegistry | ToolSet;
  /** Outer-loop cycle context: given to the plan task and hashed into the PlannerManifest. */
  readonly outerLoopContext?: OuterLoopContext;
  readonly parentRunId?: string;
  /** The orchestrator's run id when this run is a sub-run (mounts its scratch read-only). */
  readonly pipelineRunId?: string;
  readonly abortSignal?: AbortSignal;
  readonly trace?: WorkflowHarnessTraceSink;
  /** Someone watches the run live: the planner's live model calls stream and hand their text pieces here (never recorded). */
  readonly onModelDelta?: (delta: ModelDelta) => void;
  /** True when the caller already holds the run lock; otherwise the compile takes and releases it. */
  readonly holdsRunLock?: boolean;
};

/** A compiled, locked workflow version. `version` is what the runtime's `executeWorkflowVersion` takes. */
export type CompiledWorkflow = {
  readonly runId: string;
  readonly workflowVersionId: string;
  /**
   * With the `WorkflowVersionRegistered` payload this compile wrote (`registration`, absent when the
   * version came from the log): `executeWorkflowVersion` folds that event from it.
   */
  readonly version: WorkflowVersion<LwirDocument> & { readonly workflowDefinitionHash: string; readonly registration?: WorkflowVersionRegisteredPayload };
  readonly lock: CompilerLock;
  readonly workflowDefinitionHash: string;
  readonly snapshot: CompilerWorkflowDefinitionSnapshot;
  readonly plannerManifest: PlannerManifest;
  readonly request: OrchestrationRequest;
  /** True when the version was already registered in this run's log (nothing was planned again). */
  readonly fromLog: boolean;
};

const planSessionKey = "plan";

function sessionKeyForAttempt(attempt: number): string {
  return attempt === 1 ? planSessionKey : `${planSessionKey}@revision_${attempt}`;
}

function validateInput(definition: WorkflowDefinition, input: unknown): void {
  // The input is stored in the log and hashed: it must be plain JSON before any schema applies.
  try {
    canonicalJson(input ?? null);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new WorkflowInputValidationError({ workflowId: definition.id, issues: [{ path: error.path, message: error.message }] });
  }
  const result = createSchemaValidator(definition.inputSchema)(input);
  if (!result.valid) throw new WorkflowInputValidationError({ workflowId: definition.id, issues: result.errors });
}

function findLast(events: readonly EventEnvelope[], type: string): EventEnvelope | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) if (events[index]!.type === type) return events[index];
  return undefined;
}

function checkRecordedRequest(options: {
  readonly events: readonly EventEnvelope[];
  readonly runId: string;
  readonly request: OrchestrationRequest;
  readonly snapshot: CompilerWorkflowDefinitionSnapshot;
}): boolean {
  const recorded = options.events.find((event) => event.type === "OrchestrationRequested");
  if (recorded === undefined) return false;
  const stored = recorded.payload as unknown as OrchestrationRequestedPayload;
  if (stored.inputHash !== options.request.inputHash) {
    throw new CompileInputMismatchError({ runId: options.runId, storedInputHash: stored.inputHash, givenInputHash: options.request.inputHash });
  }
  if (stored.workflowDefinitionHash !== options.request.workflowDefinitionHash) {
    throw new CapabilityDriftError({
      runId: options.runId,
      sessionId: harnessSessionId({ runId: options.runId, sessionKey: planSessionKey }),
      storedHash: stored.workflowDefinitionHash,
      currentHash: options.request.workflowDefinitionHash,
      diff: ["workflowDefinitionHash changed:", ...jsonDiff(stored.snapshot, options.snapshot, "snapshot")],
    });
  }
  return true;
}

function checkPlannerDrift(events: readonly EventEnvelope[], runId: string, manifest: PlannerManifest): void {
  const currentHash = hashHarnessManifest(manifest);
  for (const event of events) {
    if (event.type !== "harness.session.started") continue;
    const payload = event.payload as { sessionId?: unknown; role?: unknown; manifest?: unknown; manifestHash?: unknown };
    if (payload.role !== "planner" || payload.manifestHash === currentHash) continue;
    throw new CapabilityDriftError({
      runId,
      sessionId: String(payload.sessionId),
      storedHash: String(payload.manifestHash),
      currentHash,
      diff: jsonDiff(payload.manifest, manifest, "manifest"),
    });
  }
}

function compactFindings(findings: readonly LwirFinding[]) {
  return findings.map((finding) => ({ code: finding.code, path: finding.path, message: finding.message }));
}

function registeredFromLog(events: readonly EventEnvelope[]): WorkflowVersionRegisteredPayload | undefined {
  return findLast(events, "WorkflowVersionRegistered")?.payload as WorkflowVersionRegisteredPayload | undefined;
}

/**
 * Compiles a workflow definition for one input into a locked WorkflowVersion (seed 000 Planner
 * Compile Loop, seed 001): validates the input, snapshots the definition, computes the
 * WorkflowDefinitionHash and PlannerManifest (drift-checked on resume), runs the planner harness
 * session, validates the LWIR (`validateLwir`, then the binding pass) with a repair loop of at
 * most `maxWorkflowRevisions`, and registers and locks the version. Every compile event goes to
 * the run's log. Compiling the same (runId, definition, input) again replays: a completed compile
 * returns the registered version, an interrupted planner session fast-forwards from its events.
 */
export async function compileWorkflow(definition: WorkflowDefinition, input: unknown, options: CompileWorkflowOptions): Promise<CompiledWorkflow> {
  const { world, runId } = options;
  if (typeof runId !== "string" || runId.length === 0) throw new InvalidCompileOptionsError("runId", "must be a non-empty string (the run the compile belongs to)");
  await workflowDefinitionReady(definition);
  validateInput(definition, input);
  const dataDir = world.paths.dataDir;
  const tools = resolveWorkflowTools(definition, options.tools);
  const snapshot = await createWorkflowDefinitionSnapshot({ definition, tools, dataDir });
  const definitionHash = hashSnapshot(snapshot);
  const request: OrchestrationRequest = {
    workflowId: definition.id,
    workflowDefinitionHash: definitionHash,
    input: input ?? null,
    inputHash: sha256Digest(input ?? null),
    ...(options.outerLoopContext === undefined ? {} : { outerLoop: options.outerLoopContext }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
  };
  const parts = await preparePlannerSession({ definition, tools, dataDir, runId, ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }) });
  const manifest = computePlannerManifest({
    harnessId: definition.planner.harnessId,
    plannerModelSlotId: definition.planner.modelSlotId,
    system: definition.planner.system,
    skillsHash: parts.skillsHash,
    workflowDefinitionHash: definitionHash,
    globalToolsHash: snapshot.globalToolsHash,
    bashCapabilitiesHash: plannerBashCapabilitiesHash({ memoryMounts: parts.memoryMounts, scratchMounts: parts.scratchMounts, skillMounts: parts.mounts, ...(definition.bash === undefined ? {} : { bash: definition.bash }) }),
    memoryStoreIds: parts.memoryStoreIds,
    ...(options.outerLoopContext === undefined ? {} : { outerLoopContext: options.outerLoopContext }),
  });

  const lock = options.holdsRunLock === true ? undefined : await world.acquireRunLock(runId);
  try {
    const events = await world.listEvents(runId);
    const requested = checkRecordedRequest({ events, runId, request, snapshot });
    checkPlannerDrift(events, runId, manifest);
    const recorded = registeredFromLog(events);
    if (recorded !== undefined) {
      if (!requested || recorded.lock === undefined) {
        throw new RegisteredVersionMismatchError({ runId, problem: "its log registers a workflow version that was not compiled from a definition (a run of an LWIR document)" });
      }
      const version = registerWorkflowVersion(recorded.lwir as LwirDocument);
      if (version.id !== recorded.workflowVersionId) {
        throw new RegisteredVersionMismatchError({ runId, problem: `the registered LWIR hashes to ${version.id}, not the recorded ${recorded.workflowVersionId}` });
      }
      return { runId, workflowVersionId: version.id, version: { ...version, workflowDefinitionHash: definitionHash }, lock: recorded.lock, workflowDefinitionHash: definitionHash, snapshot, plannerManifest: manifest, request, fromLog: true };
    }
    const appends = new CompileAppends(world, runId);
    if (!requested) {
      const payload: OrchestrationRequestedPayload = { ...request, snapshot };
      appends.hold([{ type: "OrchestrationRequested", payload }]);
    }
    let lwir: LwirDocument;
    try {
      lwir = await planValidLwir({ definition, input: request.input, options, parts, manifest, snapshot, definitionHash, appends, events });
    } catch (error) {
      // A failed compile's log still says what was asked (and which plan was found valid, if
      // any). The compile's own error is the one to report: a world that cannot take this
      // write fails the next one (the run's RunFailed) as well.
      await appends.flush().catch(() => undefined);
      throw error;
    }
    const version = registerWorkflowVersion(lwir);
    const toolDescriptors = (await tools.describe()).tools;
    const compilerLock = buildCompilerLock({ version, snapshot, workflowDefinitionHash: definitionHash, toolDescriptors });
    const registered: WorkflowVersionRegisteredPayload = { workflowVersionId: version.id, hash: version.hash, lwir: version.lwir, workflowDefinitionHash: definitionHash, lock: compilerLock };
    await appends.appendEvents(runId, [{ type: "WorkflowVersionRegistered", payload: registered }]);
    // The payload goes with the version: the runtime folds the stored event from it (proven equal
    // by the event's id) instead of parsing the plan back out of the log.
    return { runId, workflowVersionId: version.id, version: { ...version, workflowDefinitionHash: definitionHash, registration: registered }, lock: compilerLock, workflowDefinitionHash: definitionHash, snapshot, plannerManifest: manifest, request, fromLog: false };
  } finally {
    await lock?.release();
  }
}

async function planValidLwir(options: {
  readonly definition: WorkflowDefinition;
  readonly input: unknown;
  readonly options: CompileWorkflowOptions;
  readonly parts: Awaited<ReturnType<typeof preparePlannerSession>>;
  readonly manifest: PlannerManifest;
  readonly snapshot: CompilerWorkflowDefinitionSnapshot;
  readonly definitionHash: string;
  /** Where the planner session and the verdicts write (announcements held for the next write). */
  readonly appends: CompileAppends;
  /** The run's events as the compile read them under its lock. */
  readonly events: readonly EventEnvelope[];
}): Promise<LwirDocument> {
  const { definition, parts, manifest, snapshot, appends } = options;
  const { world, runId } = options.options;
  const maxWorkflowRevisions = definition.planner.maxWorkflowRevisions;
  const target: BindingTarget = {
    workflowId: definition.id,
    inputSchema: snapshot.inputSchema,
    outputSchema: snapshot.outputSchema,
    modelSlotIds: snapshot.modelSlots.map((slot) => slot.id),
    toolNames: snapshot.globalTools,
    tools: snapshot.tools,
  };
  const defaults: SubmissionDefaults = { workflowId: definition.id, inputSchema: snapshot.inputSchema, outputSchema: snapshot.outputSchema, toolNames: snapshot.globalTools };
  // What submit_workflow validated: the argument (an object, or its JSON text), completed.
  const completeSubmitted = (submitted: unknown): unknown => {
    if (typeof submitted !== "string") return completeSubmission(submitted, defaults);
    try {
      return completeSubmission(JSON.parse(submitted) as unknown, defaults);
    } catch {
      return submitted;
    }
  };
  const check = (lwir: unknown): LwirFinding[] => {
    const structural = validateLwir(lwir);
    return structural.valid ? bindingFindings(lwir, target) : [...structural.findings];
  };
  const validations = ValidationLog.of(appends, runId, options.events);
  const exhausted = (reason: "revisions_exhausted" | "not_submitted" | "fixed_plan", cause?: unknown) =>
    new PlannerValidationExhaustedError({ runId, workflowId: definition.id, maxWorkflowRevisions, revisions: validations.failedRevisions, reason, ...(cause === undefined ? {} : { cause }) });
  const abortSignal = options.options.abortSignal ?? new AbortController().signal;
  let previousFindings: ReturnType<typeof compactFindings> = [];
  let revisionsBefore = 0;

  for (let attempt = 1; ; attempt += 1) {
    const sessionKey = sessionKeyForAttempt(attempt);
    const sessionId = harnessSessionId({ runId, sessionKey });
    const ctx: WorkflowHarnessContext & { readonly planning: { readonly previousFindings: typeof previousFindings } } = {
      // runs/<runId>, or runs/<pipelineRunId>/sub-runs/<runId> inside a pipeline (the planner's scratch is there too).
      scope: { runId, logDir: runScratchLayout({ dataDir: world.paths.dataDir, runId, ...(options.options.pipelineRunId === undefined ? {} : { pipelineRunId: options.options.pipelineRunId }) }).runDir, role: "planner", ...(options.options.parentRunId === undefined ? {} : { parentRunId: options.options.parentRunId }) },
      model: parts.model,
      ...(definition.planner.system === undefined ? {} : { system: definition.planner.system }),
      tools: parts.tools,
      memoryMounts: parts.memoryMounts,
      scratchMounts: parts.scratchMounts,
      skills: parts.skills,
      mounts: parts.mounts,
      ...(definition.bash === undefined ? {} : { bashCapabilities: definition.bash }),
      durability: { ...harnessEventSinkFromWorld(appends, runId), ...(options.options.onModelDelta === undefined ? {} : { onModelDelta: options.options.onModelDelta }) },
      ...(options.options.trace === undefined ? {} : { trace: options.options.trace }),
      abortSignal,
      manifest,
      sessionKey,
      planning: {
        maxWorkflowRevisions: Math.max(1, maxWorkflowRevisions - revisionsBefore),
        validateWorkflow: (lwir) => bindingFindings(lwir, target),
        completeWorkflow: (lwir) => completeSubmission(lwir, defaults),
        previousFindings,
      },
    };
    const task = { kind: "plan" as const, workflowSnapshot: snapshot, input: options.input, ...(options.options.outerLoopContext === undefined ? {} : { outerLoopContext: options.options.outerLoopContext }) };
    let result: HarnessResult;
    try {
      result = await definition.planner.harness.run(task, ctx);
      if (result.kind === "delegate_to_default") result = await workflowHarness.run(task, ctx);
    } catch (error) {
      await validations.recordSubmissions(completeSubmitted);
      if (error instanceof PlanRevisionsExhaustedError) throw exhausted("revisions_exhausted", error);
      if (error instanceof PlanNotSubmittedError) throw exhausted("not_submitted", error);
      throw error;
    }
    await validations.recordSubmissions(completeSubmitted);
    if (result.kind !== "plan") {
      throw new InvalidCompileOptionsError("planner.harness", `returned a "${result.kind}" result for a plan task; a planner harness must return { kind: "plan", lwir }`);
    }
    // Idempotent: a default-harness plan is complete already; a custom harness's gets the same help.
    // A shared canonicalSnapshot (frozen, its text and digest kept): the verdict cache, the
    // validation events, registerWorkflowVersion and WorkflowVersionRegistered then reuse one
    // canonicalization instead of walking a long plan five times per run.
    const planned = snapshotIfJson(completeSubmission(result.lwir, defaults), { share: true });
    const findings = [...checkPlanOnce({ plan: planned, target, check })];
    // A submission accepted inside the session already has its verdict; record one only for LWIR the harness produced otherwise.
    if (findings.length === 0) {
      if (!validations.accepted(planned)) await validations.record({ key: sessionId, source: "harness_result", lwir: planned, findings: [] });
      return planned as LwirDocument;
    }
    await validations.record({ key: sessionId, source: "harness_result", lwir: planned, findings: compactFindings(findings) });
    // A fixed plan answers every revision with the same document: asking again cannot help.
    if (definition.planner.fixedPlan !== undefined) throw exhausted("fixed_plan");
    if (validations.revisionCount >= maxWorkflowRevisions) throw exhausted("revisions_exhausted");
    previousFindings = compactFindings(findings);
    revisionsBefore = validations.revisionCount;
  }
}
