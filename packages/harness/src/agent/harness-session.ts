import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel, type ToolSet } from "ai";
import { toErrorEnvelope } from "../contract/error-envelope.js";
import type { HarnessScope, HarnessTaskKind } from "../contract/harness.js";
import { hashHarnessManifest } from "../contract/hash-harness-manifest.js";
import type { HarnessManifest } from "../contract/manifests.js";
import { HarnessSessionError } from "../errors/harness-session-errors.js";
import { CapabilityDriftError } from "../errors/replay-errors.js";
import type { HarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { ExecuteStepUses, SessionCompletedPayload, SessionUsage } from "../events/harness-event-types.js";
import { harnessSessionId } from "./call-ids.js";
import { wrapToolsForSession } from "./durable-tools.js";
import { diffJson } from "./manifest-diff.js";
import { createRecordingMiddleware } from "./recording-middleware.js";
import { SessionCore, type SessionStats } from "./session-core.js";
import { executeStepKey, SessionLedger } from "./session-ledger.js";

export type OpenHarnessSessionOptions = {
  readonly recorder: HarnessEventRecorder;
  readonly scope: HarnessScope;
  /**
   * Names this session within its run; must be the same on resume ("plan", "step:fetch@attempt_1",
   * "fix:parse@attempt_2" …). Call ids are derived from the run id, this key and the position.
   */
  readonly sessionKey: string;
  readonly task: { readonly kind: HarnessTaskKind };
  readonly manifest: HarnessManifest;
  /** Stamped on `harness.model.responded` (the runtime's step path, for worker sessions). */
  readonly stepPath?: string;
};

/**
 * A durable harness session: wrap the model and tools with it, run any AI SDK loop, then
 * complete or fail it. Opening a session that is already in the log resumes it: recorded model
 * responses and tool results are fed back in order, and live execution starts at the first
 * unrecorded call.
 */
export type HarnessSession = {
  readonly runId: string;
  readonly sessionId: string;
  readonly sessionKey: string;
  readonly manifestHash: string;
  /** True when `harness.session.started` for this session was already recorded. */
  readonly resumed: boolean;
  /** The recorded completion, when the session already completed before this process. */
  readonly recordedCompletion: SessionCompletedPayload | undefined;
  wrapModel(model: LanguageModelV3): LanguageModelV3;
  wrapTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS;
  /**
   * Runs a tool call that did not come from the model (code.run bridge, tool.call step),
   * recorded with `caller: "code"` and no turn. `callIndex` defaults to the session's next one.
   */
  callTool(options: {
    readonly toolName: string;
    readonly args: unknown;
    readonly callId: string;
    readonly callIndex: number;
    readonly execute: () => unknown;
  }): Promise<unknown>;
  nextCodeCallIndex(): number;
  /**
   * Runs a direct-execute step (tool.call, decision, code.run) between
   * `harness.execute_step.started` and `.succeeded`. A step whose `succeeded` is recorded returns
   * the recorded output without running again; a step only `started` runs again.
   */
  executeStep(options: {
    readonly stepId: string;
    readonly uses: ExecuteStepUses;
    readonly stepPath: string;
    readonly visitIndex: number;
    readonly run: () => Promise<unknown>;
  }): Promise<unknown>;
  complete(options?: { readonly output?: unknown }): Promise<void>;
  fail(error: unknown): Promise<void>;
  usage(): SessionUsage;
  stats(): SessionStats;
};

export async function openHarnessSession(options: OpenHarnessSessionOptions): Promise<HarnessSession> {
  const { recorder, scope, sessionKey, manifest } = options;
  if (recorder.runId !== scope.runId) {
    throw new HarnessSessionError(
      "harness.session_scope_mismatch",
      `The recorder writes run ${recorder.runId} but the session scope is run ${scope.runId}; give the session a recorder for its own run.`,
    );
  }
  if (sessionKey.length === 0) {
    throw new HarnessSessionError("harness.invalid_session_key", "sessionKey must be a non-empty string that is the same when the session resumes.");
  }
  const runId = scope.runId;
  const sessionId = harnessSessionId({ runId, sessionKey });
  const ledger = new SessionLedger(await recorder.list());
  const manifestHash = hashHarnessManifest(manifest);
  const stored = ledger.sessionsStarted.get(sessionId);
  if (stored !== undefined) {
    const roleDiff = stored.role === scope.role ? [] : [`role: ${stored.role} → ${scope.role}`];
    if (stored.manifestHash !== manifestHash || roleDiff.length > 0) {
      throw new CapabilityDriftError({
        runId,
        sessionId,
        storedHash: stored.manifestHash,
        currentHash: manifestHash,
        diff: [...roleDiff, ...diffJson(stored.manifest, manifest, "manifest")],
      });
    }
  }
  const core = new SessionCore({ runId, sessionKey, sessionId, recorder, ledger, ...(options.stepPath === undefined ? {} : { stepPath: options.stepPath }) });
  if (stored === undefined) {
    await core.append([
      {
        type: "harness.session.started",
        payload: {
          runId,
          sessionId,
          role: scope.role,
          task: { kind: options.task.kind },
          manifest,
          manifestHash,
          ...(scope.parentRunId === undefined ? {} : { parentRunId: scope.parentRunId }),
        },
      },
    ]);
  }
  const middleware = createRecordingMiddleware(core);
  // Every event of a step's session names the step, so a step's events can be selected by path.
  const stepPathField = options.stepPath === undefined ? {} : { stepPath: options.stepPath };
  let finished = ledger.sessionsCompleted.has(sessionId);
  return {
    runId,
    sessionId,
    sessionKey,
    manifestHash,
    resumed: stored !== undefined,
    recordedCompletion: ledger.sessionsCompleted.get(sessionId),
    wrapModel: (model) => wrapLanguageModel({ model, middleware }),
    wrapTools: (tools) => wrapToolsForSession(core, tools),
    callTool: (call) => core.runToolCall({ toolName: call.toolName, args: call.args, callId: call.callId, callIndex: call.callIndex, execute: call.execute, caller: "code" }),
    nextCodeCallIndex: () => core.takeCodeCallIndex(),
    async executeStep(step) {
      const identity = { runId, stepId: step.stepId, uses: step.uses, stepPath: step.stepPath, visitIndex: step.visitIndex };
      const key = executeStepKey(identity);
      const succeeded = ledger.executeStepsSucceeded.get(key);
      if (succeeded !== undefined) return succeeded.output;
      if (!ledger.executeStepsStarted.has(key)) await core.append([{ type: "harness.execute_step.started", payload: identity }]);
      const output = (await step.run()) ?? null;
      await core.append([{ type: "harness.execute_step.succeeded", payload: { output, ...identity } }]);
      return output;
    },
    async complete(completion) {
      if (finished) return;
      await core.append([
        {
          type: "harness.session.completed",
          payload: {
            runId,
            sessionId,
            ...stepPathField,
            ...(completion?.output === undefined ? {} : { output: completion.output }),
            usage: core.usageTotals(),
          },
        },
      ]);
      finished = true;
    },
    async fail(error) {
      if (finished) return;
      await core.append([{ type: "harness.session.failed", payload: { runId, sessionId, ...stepPathField, error: toErrorEnvelope(error) } }]);
      finished = true;
    },
    usage: () => core.usageTotals(),
    stats: () => ({ ...core.stats }),
  };
}
