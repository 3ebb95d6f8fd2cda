import { canonicalJson, LittleWorkflowError, randomId, sha256Digest, sha256DigestOfBytes } from "@little-stack/canonical";
import type { Harness, ResolvedModel, ToolRegistry, WorkflowBashCapabilities } from "@little-stack/harness";
import { checkBashCapabilities, createToolRegistry, workflowHarness } from "@little-stack/harness";
import type { World } from "@little-stack/local-world";
import { createSchemaValidator } from "@little-stack/lwir";
import { checkStoreName, MemoryConfigError, MemoryLayoutError, resolveMemoryConfig, runScratchLayout } from "@little-stack/memory";
import type { ModelRegistry } from "@little-stack/models";
import type { SkillReference } from "@little-stack/skills";
import { RunFailedError } from "../errors/run-failed-error.js";
import { RunInputMismatchError, WorkflowVersionMismatchError } from "../errors/run-integrity-errors.js";
import { InvalidRunOptionsError } from "../errors/runtime-config-errors.js";
import type { EventRecord, StepErrorPayload } from "../events/runtime-event-types.js";
import { RunStateFolder } from "../run-state/run-state-folder.js";
import { captureCapabilities, requireSameCapabilities } from "./capabilities.js";
import { validateVersionOnce } from "./validated-versions.js";
import { resolveRunSkills, type RunSkills, type RunStorage } from "./session-resources.js";
import { parseTimeout } from "./parse-timeout.js";
import type { RunContext } from "./run-context.js";
import { RunLog } from "./run-log.js";
import { RunEventDispatcher } from "../events/run-event-dispatcher.js";
import type { RunEventListener } from "../events/run-event.js";
import type { RunHistory } from "./run-history.js";
import { buildFailedRunResult, buildRunResult, type RunResult } from "./run-result.js";
import { completedRunResult } from "./completed-run-result.js";
import { Cancellation } from "./cancellation.js";
import { runScope } from "./run-scope.js";
import { Semaphore } from "./semaphore.js";
import { StepFailure } from "./step-failure.js";
import { verifyWorkflowVersion, type WorkflowVersionLike } from "./workflow-version.js";
import { knownRegistration } from "./known-registration.js";
import { inlineOutputLimit } from "../events/runtime-event-types.js";

/** A model for a slot: an AI SDK language model, or one already resolved with its slot id. */
export type ModelSlotValue = ResolvedModel | ResolvedModel["model"];

export type ExecuteWorkflowVersionOptions = {
  readonly world: World;
  readonly workflowVersion: WorkflowVersionLike;
  readonly input: unknown;
  /** Give the id of an unfinished run to resume it; default: a new `run_…` id. */
  readonly runId?: string;
  /** The tool registry; the workflow sees the tools its `permissions.tools` lists. */
  readonly tools?: ToolRegistry;
  /** Model slot id → model. */
  readonly models?: Readonly<Record<string, ModelSlotValue>>;
  /** Runs every step (execute_step) and fixer (fix_step). Default: the harness's `workflowHarness`. */
  readonly workerHarness?: Harness;
  /** Where `delegate_to_default` goes. Default: `workflowHarness`. */
  readonly defaultHarness?: Harness;
  /** Names the worker harness in manifests and capability pins (default: its `id` property, else "custom"). */
  readonly harnessId?: string;
  readonly signal?: AbortSignal;
  /** `"30m"`, `"90s"`, `"250ms"` or milliseconds, for this invocation. */
  readonly timeout?: string | number;
  readonly parentRunId?: string;
  readonly outerLoopId?: string;
  /** Prices usage in the result (default: the bundled registry). */
  readonly modelRegistry?: ModelRegistry;
  /**
   * The workflow's id: its memory store (`<dataDir>/memory/workflows/<id>`) is mounted in worker
   * (read-only) and fixer sessions. Without it only the org store and scratch are mounted.
   */
  readonly workflowId?: string;
  /** The workflow's `memory` option (`{ workflow?, org?, attach? }`), as given to `defineWorkflow`. */
  readonly memory?: unknown;
  /**
   * Skills for step sessions (the workflow's `worker.skills`: `skill()` references or paths). The
   * org skills under `<dataDir>/memory/org/skills/` are added either way.
   */
  readonly workerSkills?: readonly (SkillReference | string)[];
  /**
   * The workflow's `bash` option (network allow-list, `maxCommands`, `timeoutMs`): what the
   * fixer's shell may do. Checked like `defineWorkflow` checks it; part of the fixer manifest's
   * `bashCapabilitiesHash`. Workers have no shell.
   */
  readonly bashCapabilities?: WorkflowBashCapabilities;
  /**
   * The orchestrator's run when this run is a pipeline's sub-run: its folder is then
   * `runs/<pipelineRunId>/sub-runs/<runId>` and its sessions see the orchestrator's scratch read-only.
   */
  readonly pipelineRunId?: string;
  /**
   * Watches the run live: every event as it is committed, in commit order (a resumed run's
   * recorded events first, `replayed: true`), and the text deltas of live model calls
   * (`ephemeral: true`, never recorded). See `RunEvent` for the delivery rules.
   */
  readonly onEvent?: RunEventListener | RunEventDispatcher;
  /**
   * True when the caller already holds the run's lock (`world.acquireRunLock(runId)`) and gives
   * it back itself: `runWorkflow` takes one lock for the compile and the run. Otherwise the run
   * takes and releases its own.
   */
  readonly holdsRunLock?: boolean;
};

/**
 * Executes a locked workflow version in a world, durably. Re-running with the `runId` of an
 * unfinished run resumes it: completed steps are reused, an in-flight attempt resumes on the same
 * attempt (its recorded model and tool calls replay inside the harness session). A completed run
 * returns its recorded result; a failed run throws its recorded RunFailedError.
 */
export async function executeWorkflowVersion(options: ExecuteWorkflowVersionOptions): Promise<RunResult> {
  const { world, workflowVersion } = options;
  const runId = options.runId ?? randomId("run");
  const version = verifyWorkflowVersion(workflowVersion);
  const lwir = workflowVersion.lwir;
  const configFailure = (message: string): RunFailedError =>
    new RunFailedError({ runId, workflowVersionId: version.id, causeCode: "runtime_config_error", message });
  const validation = validateVersionOnce(lwir, version.hash);
  if (!validation.valid) {
    const findings = validation.findings.slice(0, 10).map((finding) => `${finding.path} ${finding.code}: ${finding.message}`);
    throw configFailure(`the LWIR is not valid (${validation.findings.length} finding${validation.findings.length === 1 ? "" : "s"}):\n  ${findings.join("\n  ")}`);
  }
  if (options.onEvent !== undefined && typeof options.onEvent !== "function" && !(options.onEvent instanceof RunEventDispatcher)) {
    throw new InvalidRunOptionsError("onEvent", "must be a function (event) => void");
  }
  // A completed run is final: running it again returns its recorded result without taking the
  // lock or folding the log — read off its RunStarted, RunCompleted, model responses and artifacts,
  // its whole log read when the result's events are (the version must still be the one it ran).
  if (options.runId !== undefined) {
    const recorded = await completedRunResult({
      world,
      runId,
      input: options.input,
      workflowVersionId: version.id,
      ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }),
    });
    if (recorded !== undefined) {
      // A watcher asked for the run's events: they are read now.
      if (options.onEvent !== undefined) (options.onEvent instanceof RunEventDispatcher ? options.onEvent : new RunEventDispatcher(options.onEvent)).committed(recorded.events, { replayed: true });
      return recorded;
    }
  }
  const { storage, logDir } = checkedStorage(world, runId, options, configFailure);
  const timeoutMs = options.timeout === undefined ? undefined : parseTimeout(options.timeout);
  const harness = options.workerHarness ?? options.defaultHarness ?? workflowHarness;
  const defaultHarness = options.defaultHarness ?? workflowHarness;
  const namedId = (harness as Harness & { readonly id?: unknown }).id;
  const harnessId = options.harnessId ?? (typeof namedId === "string" ? namedId : "custom");
  const registry = options.tools ?? createToolRegistry({});
  const allowedTools = (lwir.permissions?.tools ?? []).filter((name) => registry.has(name));
  const tools = registry.pick(allowedTools);
  const models = resolveModels(options.models ?? {}, lwir.permissions?.models ?? []);
  const [toolSnapshot, capabilities] = await Promise.all([tools.describe(), captureCapabilities({ harnessId, tools, models })]);
  const skills = await workerSkillsOf(storage.dataDir, options.workerSkills ?? [], configFailure);

  const lock = options.holdsRunLock === true ? undefined : await world.acquireRunLock(runId);
  const cancellation = new Cancellation();
  let abortCause: "timeout" | "cancelled" | undefined;
  let log: RunLog | undefined;
  const abort = (cause: "timeout" | "cancelled"): void => {
    abortCause ??= cause;
    log?.sealHarness();
    cancellation.cancel({ kind: "run", cause: abortCause });
  };
  const onUserAbort = (): void => abort("cancelled");
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => abort("timeout"), timeoutMs);
  timer?.unref?.();
  if (options.signal?.aborted) abort("cancelled");
  else options.signal?.addEventListener("abort", onUserAbort, { once: true });

  const folder = new RunStateFolder({ runId, ...(options.modelRegistry === undefined ? {} : { modelRegistry: options.modelRegistry }) });
  const watcher = options.onEvent === undefined ? undefined : options.onEvent instanceof RunEventDispatcher ? options.onEvent : new RunEventDispatcher(options.onEvent);
  log = new RunLog(world, runId, folder, watcher);
  if (cancellation.cancelled) log.sealHarness();
  try {
    const expected = { ...version, lwir, registration: workflowVersion.registration };
    await log.open((event) => knownRegistration(event, expected));
    const resumed = folder.eventCount > 0;
    if (resumed) {
      const stored = folder.snapshot();
      if (stored.workflowVersionId !== undefined && stored.workflowVersionId !== version.id) {
        throw new WorkflowVersionMismatchError({ runId, storedVersionId: stored.workflowVersionId, givenVersionId: version.id });
      }
      if (stored.status !== "not_started" && sha256Digest(stored.input ?? null) !== sha256Digest(options.input ?? null)) {
        throw new RunInputMismatchError({ runId, storedDigest: sha256Digest(stored.input ?? null), givenDigest: sha256Digest(options.input ?? null) });
      }
      if (stored.status === "completed") return await buildRunResult({ world, runId, folder, history: await log.history() });
      if (stored.status === "failed") throw recordedFailure({ runId, folder, history: await log.history(), workflowVersionId: version.id });
      // Refused before anything is written (like a mismatched input): the run stays resumable.
      if (stored.capabilities !== undefined) requireSameCapabilities({ runId, pinned: stored.capabilities, current: capabilities });
    }
    if (folder.status === "not_started") {
      const runStarted = {
        type: "RunStarted",
        payload: {
          workflowVersionId: version.id,
          input: options.input ?? null,
          capabilities,
          ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
          ...(options.outerLoopId === undefined ? {} : { outerLoopId: options.outerLoopId }),
        },
      };
      // One transaction for both: a run is registered and started together or not at all.
      const registered = { type: "WorkflowVersionRegistered", payload: { workflowVersionId: version.id, hash: version.hash, lwir } };
      await log.appendAny(folder.workflowVersionRegistered ? [runStarted] : [registered, runStarted]);
    }
    const run: RunContext = {
      runId,
      workflowVersionId: version.id,
      workflowDefinitionHash: workflowVersion.workflowDefinitionHash ?? version.hash,
      lwir,
      input: options.input ?? null,
      world,
      log,
      harness,
      defaultHarness,
      harnessId,
      tools,
      allowedToolsHash: toolSnapshot.digest,
      models,
      stepSlots: new Semaphore(world.maxConcurrentSteps),
      cancellation,
      logDir,
      storage,
      skills,
    };
    try {
      checkInput(run);
      const outcome = await runScope({ run, steps: lwir.steps, prefix: "", scopeName: "the workflow", outerSteps: {} });
      const terminal = outcome.terminalStepId === undefined ? undefined : outcome.outputsById.get(outcome.terminalStepId)?.at(-1);
      const final = terminal ?? outcome.lastCompleted;
      const output = final?.output ?? null;
      const outputCheck = createSchemaValidator(lwir.output.schema)(output);
      if (!outputCheck.valid) {
        throw new StepFailure("step_schema_error", final?.stepPath, {
          name: "RunOutputSchemaError",
          message: `the run output${final === undefined ? "" : ` (from ${final.stepPath})`} does not match output.schema: ${outputCheck.errors.slice(0, 5).map((error) => `${error.path} ${error.message}`).join("; ")}`,
          causeCode: "step_schema_error",
          retriable: false,
        });
      }
      const inline = canonicalJson(output).length <= inlineOutputLimit;
      await log.append([
        {
          type: "RunCompleted",
          payload: {
            workflowVersionId: version.id,
            ...(inline ? { output } : {}),
            outputRef: final?.outputRef ?? sha256DigestOfBytes("null"),
            terminalStepPath: final?.stepPath ?? null,
          },
        },
      ]);
      return await buildRunResult({ world, runId, folder, history: await log.history(), output });
    } catch (error) {
      // Once aborted, whatever was in flight failed because of the abort: record the abort.
      if (cancellation.reason?.kind === "run") {
        const failedStepPath = error instanceof StepFailure ? error.failedStepPath : undefined;
        return await failRun({ run, failure: abortFailureFor(abortCause, failedStepPath), folder });
      }
      if (error instanceof StepFailure) return await failRun({ run, failure: error, folder });
      throw error;
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onUserAbort);
    log.seal();
    await lock?.release();
  }
}

/**
 * The run's memory settings and its folder (`runs/<runId>` or the pipeline's `sub-runs/<runId>`),
 * checked before anything is written: a bad `memory` option, workflow id or pipeline run id fails
 * the run as `runtime_config_error` naming the field.
 */
function checkedStorage(
  world: World,
  runId: string,
  options: ExecuteWorkflowVersionOptions,
  configFailure: (message: string) => RunFailedError,
): { readonly storage: RunStorage; readonly logDir: string } {
  const storage: RunStorage = {
    dataDir: world.paths.dataDir,
    ...(options.workflowId === undefined ? {} : { workflowId: options.workflowId }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
    ...(options.bashCapabilities === undefined ? {} : { bash: checkedBash(options.bashCapabilities, configFailure) }),
  };
  const badWorkflowId = storage.workflowId === undefined ? undefined : checkStoreName(storage.workflowId);
  if (badWorkflowId !== undefined) throw configFailure(`workflowId ${JSON.stringify(storage.workflowId)} ${badWorkflowId}`);
  try {
    resolveMemoryConfig(storage.memory, storage.workflowId === undefined ? {} : { ownWorkflowId: storage.workflowId });
    const layout = runScratchLayout({ dataDir: storage.dataDir, runId, ...(storage.pipelineRunId === undefined ? {} : { pipelineRunId: storage.pipelineRunId }) });
    return { storage, logDir: layout.runDir };
  } catch (error) {
    if (error instanceof MemoryConfigError || error instanceof MemoryLayoutError) throw configFailure(error.message);
    throw error;
  }
}

/** Resolves the worker skills before anything is written: a bad skill is a `runtime_config_error` naming it. */
async function workerSkillsOf(dataDir: string, declared: readonly (SkillReference | string)[], configFailure: (message: string) => RunFailedError): Promise<RunSkills> {
  try {
    return await resolveRunSkills({ dataDir, declared });
  } catch (error) {
    if (error instanceof LittleWorkflowError && error.code.startsWith("skills.")) throw configFailure(`worker skills: ${error.message}`);
    throw error;
  }
}

function abortFailureFor(cause: "timeout" | "cancelled" | undefined, failedStepPath: string | undefined): StepFailure {
  const causeCode = cause ?? "cancelled";
  const error: StepErrorPayload = {
    name: causeCode === "timeout" ? "RunTimeoutError" : "RunCancelledError",
    message: causeCode === "timeout" ? "the run's timeout elapsed" : "the run was cancelled through its AbortSignal",
    causeCode,
    retriable: false,
  };
  return new StepFailure(causeCode, failedStepPath, error);
}

async function failRun(options: { run: RunContext; failure: StepFailure; folder: RunStateFolder }): Promise<never> {
  const { run, failure } = options;
  await run.log.append([
    {
      type: "RunFailed",
      payload: {
        workflowVersionId: run.workflowVersionId,
        error: {
          name: failure.error.name,
          message: failure.error.message,
          causeCode: failure.causeCode,
          ...(failure.failedStepPath === undefined ? {} : { failedStepPath: failure.failedStepPath }),
        },
      },
    },
  ]);
  throw recordedFailure({ runId: run.runId, folder: options.folder, history: await run.log.history(), workflowVersionId: run.workflowVersionId });
}

function recordedFailure(options: { runId: string; folder: RunStateFolder; history: RunHistory; workflowVersionId: string }): RunFailedError {
  const result = buildFailedRunResult(options);
  return new RunFailedError({
    runId: options.runId,
    workflowVersionId: options.workflowVersionId,
    causeCode: result.error.causeCode,
    message: result.error.message,
    ...(result.error.failedStepPath === undefined ? {} : { failedStepPath: result.error.failedStepPath }),
    result,
  });
}

function checkInput(run: RunContext): void {
  const result = createSchemaValidator(run.lwir.input.schema)(run.input);
  if (result.valid) return;
  throw new StepFailure("input_schema_error", undefined, {
    name: "RunInputSchemaError",
    message: `the run input does not match input.schema: ${result.errors.slice(0, 5).map((error) => `${error.path} ${error.message}`).join("; ")}`,
    causeCode: "input_schema_error",
    retriable: false,
  });
}

function resolveModels(models: Readonly<Record<string, ModelSlotValue>>, allowed: readonly string[]): Map<string, ResolvedModel> {
  const resolved = new Map<string, ResolvedModel>();
  for (const slotId of Object.keys(models).sort()) {
    if (!allowed.includes(slotId)) continue;
    const value = models[slotId]!;
    if (typeof value !== "object" || value === null) throw new InvalidRunOptionsError(`models.${slotId}`, "must be an AI SDK language model");
    if ("slotId" in value && "model" in value) resolved.set(slotId, value);
    else resolved.set(slotId, { slotId, provider: String(value.provider), modelId: String(value.modelId), model: value });
  }
  return resolved;
}

/** A bash option given straight to the runtime (not through `defineWorkflow`) is checked the same way. */
function checkedBash(value: WorkflowBashCapabilities, configFailure: (message: string) => RunFailedError): WorkflowBashCapabilities {
  try {
    return checkBashCapabilities(value, "bashCapabilities");
  } catch (error) {
    throw configFailure(error instanceof Error ? error.message : String(error));
  }
}
