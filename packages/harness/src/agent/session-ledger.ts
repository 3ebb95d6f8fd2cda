import type {
  ExecuteStepStartedPayload,
  ExecuteStepSucceededPayload,
  HarnessEventEnvelope,
  ModelCalledPayload,
  ModelRespondedPayload,
  SessionCompletedPayload,
  SessionStartedPayload,
  ToolCallFailedPayload,
  ToolCallStartedPayload,
  ToolCallSucceededPayload,
} from "../events/harness-event-types.js";

export type RecordedToolCall = {
  readonly started?: ToolCallStartedPayload;
  readonly terminal?:
    | { readonly type: "harness.tool_call.succeeded"; readonly payload: ToolCallSucceededPayload }
    | { readonly type: "harness.tool_call.failed"; readonly payload: ToolCallFailedPayload };
};

/**
 * What a run's log already holds, indexed by deterministic id. Built once when a session opens
 * (one pass over the run's harness events) and kept current as the session appends, so each
 * lookup during replay is O(1).
 */
export class SessionLedger {
  readonly sessionsStarted = new Map<string, SessionStartedPayload>();
  readonly sessionsCompleted = new Map<string, SessionCompletedPayload>();
  readonly modelCalled = new Map<string, ModelCalledPayload>();
  readonly modelResponded = new Map<string, ModelRespondedPayload>();
  readonly toolCalls = new Map<string, RecordedToolCall>();
  /** Keyed by `executeStepKey(runId, stepPath, visitIndex)`. */
  readonly executeStepsStarted = new Map<string, ExecuteStepStartedPayload>();
  readonly executeStepsSucceeded = new Map<string, ExecuteStepSucceededPayload>();

  constructor(events: readonly HarnessEventEnvelope[] = []) {
    for (const event of events) this.add(event);
  }

  add(event: { readonly type: string; readonly payload: unknown }): void {
    const payload = event.payload as Record<string, unknown>;
    switch (event.type) {
      case "harness.session.started":
        if (typeof payload.sessionId === "string") this.sessionsStarted.set(payload.sessionId, payload as SessionStartedPayload);
        break;
      case "harness.session.completed":
        if (typeof payload.sessionId === "string") this.sessionsCompleted.set(payload.sessionId, payload as SessionCompletedPayload);
        break;
      case "harness.model.called":
        if (typeof payload.callId === "string") this.modelCalled.set(payload.callId, payload as ModelCalledPayload);
        break;
      case "harness.model.responded":
        this.modelResponded.set(payload.callId as string, payload as ModelRespondedPayload);
        break;
      case "harness.tool_call.started": {
        const callId = payload.callId as string;
        const terminal = this.toolCalls.get(callId)?.terminal;
        this.toolCalls.set(callId, { started: payload as ToolCallStartedPayload, ...(terminal === undefined ? {} : { terminal }) });
        break;
      }
      case "harness.tool_call.succeeded":
      case "harness.tool_call.failed": {
        const callId = payload.callId as string;
        const terminal = { type: event.type, payload } as RecordedToolCall["terminal"];
        const started = this.toolCalls.get(callId)?.started;
        this.toolCalls.set(callId, { terminal, ...(started === undefined ? {} : { started }) });
        break;
      }
      case "harness.execute_step.started":
        this.executeStepsStarted.set(executeStepKey(payload), payload as ExecuteStepStartedPayload);
        break;
      case "harness.execute_step.succeeded":
        this.executeStepsSucceeded.set(executeStepKey(payload), payload as ExecuteStepSucceededPayload);
        break;
      default:
        break;
    }
  }
}

export function executeStepKey(payload: { readonly runId?: unknown; readonly stepPath?: unknown; readonly visitIndex?: unknown }): string {
  return JSON.stringify([payload.runId, payload.stepPath, payload.visitIndex]);
}
