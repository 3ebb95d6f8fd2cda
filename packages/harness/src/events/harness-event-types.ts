import type { CanonicalText } from "@little-stack/canonical";
import type { ErrorEnvelope } from "../contract/error-envelope.js";
import type { HarnessRole, HarnessTask, RunId } from "../contract/harness.js";
import type { HarnessManifest } from "../contract/manifests.js";

/**
 * Payloads of every `harness.*` event (seed 003). Fields marked "extension" are additions this
 * package makes where the seed leaves a gap; they are optional so a payload written to the seed's
 * shape still validates.
 */

/** Token-only usage of one model call. `costUsd` is never recorded: cost is derived downstream. */
export type ModelCallUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Subset of inputTokens. */
  readonly cachedInputTokens?: number;
  /** Subset of outputTokens. */
  readonly reasoningTokens?: number;
};

export type SessionUsage = {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
};

/** A tool the model was offered, by name and digest of its description + input schema. */
export type ToolReference = { readonly name: string; readonly digest: string };

/** A tool call the model asked for; `callId` is the harness's deterministic id for it. */
export type ToolCallRequest = { readonly callId: string; readonly toolName: string; readonly args: unknown };

/** The JSON form of one prompt message (the AI SDK's V3 prompt, made canonical-JSON-able). */
export type RecordedMessage = Readonly<Record<string, unknown>>;

export type ToolCaller = "model" | "code";

export type SessionStartedPayload = {
  readonly runId: RunId;
  /** Extension: which session of the run (several sessions share one run's log). */
  readonly sessionId?: string;
  readonly role: HarnessRole;
  readonly task: { readonly kind: HarnessTask["kind"] };
  readonly manifest: HarnessManifest;
  readonly manifestHash: string;
  readonly parentRunId?: RunId;
};

/**
 * Extension on the events a session records after `session.started` (whose manifest names the
 * step already): the step the session works for, when it has one, so a step's events — tool calls
 * included — can be selected by path.
 */
export type InStepSession = { readonly stepPath?: string };

export type SessionCompletedPayload = InStepSession & {
  readonly runId: RunId;
  readonly sessionId?: string;
  readonly output?: unknown;
  readonly usage: SessionUsage;
};

export type SessionFailedPayload = InStepSession & {
  readonly runId: RunId;
  readonly sessionId?: string;
  readonly error: ErrorEnvelope;
};

export type ModelRequest = {
  /** `provider:modelId`. */
  readonly model: string;
  readonly messages: readonly RecordedMessage[];
  readonly tools: readonly ToolReference[];
  /** Extension: present when the call asked for structured output (`Output.object` …). */
  readonly responseFormat?: Readonly<Record<string, unknown>>;
};

/**
 * Extension: the prompt of a `harness.model.called` starts with the first `messageCount` messages
 * of an earlier call's prompt, which the event does not repeat (an agent loop's turn adds only the
 * last response and its tool results, so the log grows linearly with the session, not with its square).
 */
export type ModelPromptPrefix = {
  /** The earlier call: the `callId` of a `harness.model.called` earlier in the same run's log. */
  readonly callId: string;
  /** How many leading messages of that call's whole prompt this prompt starts with (≥ 1). */
  readonly messageCount: number;
};

export type ModelCalledPayload = InStepSession & {
  readonly turn: number;
  /** Extension: the deterministic id of this model call (same as on `responded`). */
  readonly callId?: string;
  /** The hash of the whole request (prefix messages included), whether or not `promptPrefix` is set. */
  readonly promptHash: string;
  /**
   * Extension: when present, `request.messages` holds only the messages after the prefix; the whole
   * request is `resolveModelCallRequests(events)`'s.
   */
  readonly promptPrefix?: ModelPromptPrefix;
  readonly request: ModelRequest;
};

export type ModelResponse = {
  readonly text?: string;
  /** Extension: reasoning text, so that replay rebuilds the same next prompt. */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ToolCallRequest[];
  /** Extension: the unified finish reason. */
  readonly finishReason?: string;
  readonly usage: ModelCallUsage;
};

export type ModelRespondedPayload = {
  readonly turn: number;
  readonly callId: string;
  readonly stepPath?: string;
  readonly model: { readonly provider: string; readonly modelId: string };
  readonly response: ModelResponse;
  /** Extension: how long the live call took, from request to complete response (traces, timelines). */
  readonly durationMs?: number;
};

/** Not in seed 003 (runtime.md lists the type): a model call that threw. */
export type ModelFailedPayload = {
  readonly turn: number;
  readonly callId: string;
  readonly stepPath?: string;
  readonly model: { readonly provider: string; readonly modelId: string };
  readonly error: ErrorEnvelope;
};

export type ToolCallStartedPayload = InStepSession & {
  readonly turn?: number;
  readonly callId: string;
  readonly caller: ToolCaller;
  readonly toolName: string;
  readonly args: unknown;
  readonly callIndex?: number;
};

export type ToolCallSucceededPayload = InStepSession & {
  /** Extension: present exactly when `caller` is `model`, as on `started`. */
  readonly turn?: number;
  readonly callId: string;
  readonly caller: ToolCaller;
  readonly toolName: string;
  readonly args: unknown;
  readonly callIndex?: number;
  readonly result: unknown;
  readonly scope?: Readonly<Record<string, unknown>>;
  readonly durationMs?: number;
};

export type ToolCallFailedPayload = InStepSession & {
  readonly turn?: number;
  readonly callId: string;
  readonly caller: ToolCaller;
  readonly toolName: string;
  readonly args: unknown;
  readonly callIndex?: number;
  readonly error: ErrorEnvelope;
  readonly scope?: Readonly<Record<string, unknown>>;
  readonly durationMs?: number;
};

export type ExecuteStepUses = "ai.generate" | "code.run" | "tool.call" | "decision" | "parallel";

export type ExecuteStepStartedPayload = {
  readonly runId: RunId;
  readonly stepId: string;
  readonly uses: ExecuteStepUses;
  readonly stepPath: string;
  readonly visitIndex: number;
};

export type ExecuteStepSucceededPayload = {
  readonly runId: RunId;
  readonly stepId: string;
  readonly uses: ExecuteStepUses;
  readonly stepPath: string;
  readonly visitIndex: number;
  readonly output: unknown;
};

/** Event type → payload. */
export type HarnessEventPayloads = {
  readonly "harness.session.started": SessionStartedPayload;
  readonly "harness.session.completed": SessionCompletedPayload;
  readonly "harness.session.failed": SessionFailedPayload;
  readonly "harness.model.called": ModelCalledPayload;
  readonly "harness.model.responded": ModelRespondedPayload;
  readonly "harness.model.failed": ModelFailedPayload;
  readonly "harness.tool_call.started": ToolCallStartedPayload;
  readonly "harness.tool_call.succeeded": ToolCallSucceededPayload;
  readonly "harness.tool_call.failed": ToolCallFailedPayload;
  readonly "harness.execute_step.started": ExecuteStepStartedPayload;
  readonly "harness.execute_step.succeeded": ExecuteStepSucceededPayload;
};

export type HarnessEventType = keyof HarnessEventPayloads;

export const harnessEventTypes: readonly HarnessEventType[] = [
  "harness.session.started",
  "harness.session.completed",
  "harness.session.failed",
  "harness.model.called",
  "harness.model.responded",
  "harness.model.failed",
  "harness.tool_call.started",
  "harness.tool_call.succeeded",
  "harness.tool_call.failed",
  "harness.execute_step.started",
  "harness.execute_step.succeeded",
];

/**
 * The harness events a resumed session writes again when they were lost: announcements of what is
 * about to happen, and a session's end (derived from its recorded results). A store may hold them
 * for the next result's transaction or append them without a sync of their own (`durable: false`);
 * the results — a model response, a tool call's outcome, a step's output — are never among them.
 */
export const redoableHarnessEventTypes: readonly HarnessEventType[] = [
  "harness.session.started",
  "harness.session.completed",
  "harness.execute_step.started",
  "harness.model.called",
  "harness.tool_call.started",
];

/** An event before it is stored: the shape a sink appends. */
export type HarnessEvent = {
  [Type in HarnessEventType]: {
    readonly type: Type;
    readonly payload: HarnessEventPayloads[Type];
    /**
     * The payload's canonical JSON, attached by `validateHarnessEvent` (which computes it to prove
     * the payload is JSON) so that the sink's store need not serialize the payload again.
     */
    readonly canonicalPayload?: CanonicalText;
  };
}[HarnessEventType];

export type SessionStartedEvent = Extract<HarnessEvent, { type: "harness.session.started" }>;
export type SessionCompletedEvent = Extract<HarnessEvent, { type: "harness.session.completed" }>;
export type SessionFailedEvent = Extract<HarnessEvent, { type: "harness.session.failed" }>;
export type ModelCalledEvent = Extract<HarnessEvent, { type: "harness.model.called" }>;
export type ModelRespondedEvent = Extract<HarnessEvent, { type: "harness.model.responded" }>;
export type ModelFailedEvent = Extract<HarnessEvent, { type: "harness.model.failed" }>;
export type ToolCallStartedEvent = Extract<HarnessEvent, { type: "harness.tool_call.started" }>;
export type ToolCallSucceededEvent = Extract<HarnessEvent, { type: "harness.tool_call.succeeded" }>;
export type ToolCallFailedEvent = Extract<HarnessEvent, { type: "harness.tool_call.failed" }>;
export type ExecuteStepStartedEvent = Extract<HarnessEvent, { type: "harness.execute_step.started" }>;
export type ExecuteStepSucceededEvent = Extract<HarnessEvent, { type: "harness.execute_step.succeeded" }>;

/** A stored event: the runtime envelope (runtime.md) around a harness event. */
export type HarnessEventEnvelope = {
  readonly eventId: string;
  readonly runId: RunId;
  readonly sequence: number;
  readonly type: string;
  readonly recordedAt: string;
  readonly payload: unknown;
};
