import { CanonicalJsonError, canonicalSnapshot, sha256Digest } from "@little-stack/canonical";
import { toErrorEnvelope } from "../contract/error-envelope.js";
import { HarnessSessionError, RecordedToolCallError, ToolResultNotJsonError } from "../errors/harness-session-errors.js";
import { ReplayDivergenceError } from "../errors/replay-errors.js";
import type { HarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { ModelRespondedPayload, RecordedMessage, SessionUsage, ToolCaller } from "../events/harness-event-types.js";
import type { SessionLedger } from "./session-ledger.js";

/** A call's whole prompt messages; `texts` (their canonical JSON) is computed when first compared. */
export type RecordedPrompt = { readonly callId: string; readonly messages: readonly RecordedMessage[]; texts?: readonly string[] };

export type SessionStats = {
  readonly liveModelCalls: number;
  readonly replayedModelCalls: number;
  readonly liveToolCalls: number;
  readonly replayedToolCalls: number;
};

/**
 * The mutable state of one open session, shared by the recording middleware and the tool
 * wrappers: the ledger of what is recorded, the last committed turn, and counters.
 */
export class SessionCore {
  /** The last turn whose response is committed (0 before the first model call). */
  turn = 0;
  readonly toolCallTurns = new Map<string, number>();
  /**
   * The prompt of this session's latest model call (recorded, replayed or live), whose leading
   * messages the next call's `harness.model.called` refers to instead of repeating them.
   */
  lastPrompt: RecordedPrompt | undefined;
  readonly stats = { liveModelCalls: 0, replayedModelCalls: 0, liveToolCalls: 0, replayedToolCalls: 0 };
  private readonly usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  private codeCallIndex = 0;

  constructor(
    readonly options: {
      readonly runId: string;
      readonly sessionKey: string;
      readonly sessionId: string;
      readonly stepPath?: string;
      readonly recorder: HarnessEventRecorder;
      readonly ledger: SessionLedger;
    },
  ) {}

  get ledger(): SessionLedger {
    return this.options.ledger;
  }

  // Not an async function: a step appends through here three or four times, and an async layer
  // costs a promise and a microtask turn each time. The ledger learns of the events once stored.
  append(events: readonly { readonly type: string; readonly payload: unknown }[]): Promise<void> {
    return this.options.recorder.append(events).then(() => {
      for (const event of events) this.options.ledger.add(event);
    });
  }

  /** A turn's response is committed (live or replayed): its tool calls now belong to that turn. */
  commitTurn(payload: ModelRespondedPayload): void {
    this.turn = payload.turn;
    for (const call of payload.response.toolCalls ?? []) this.toolCallTurns.set(call.callId, payload.turn);
    const usage = payload.response.usage;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.cachedInputTokens += usage.cachedInputTokens ?? 0;
    this.usage.reasoningTokens += usage.reasoningTokens ?? 0;
  }

  usageTotals(): SessionUsage {
    return { ...this.usage };
  }

  /** Index of the next tool call made by code in this session (0-based, in call order). */
  takeCodeCallIndex(): number {
    return this.codeCallIndex++;
  }

  /**
   * Runs one tool call durably: a recorded result is returned without invoking the tool; a
   * recorded failure is rethrown; a call with only `started` recorded (in flight when the process
   * died) is executed again under the same call id; anything else is recorded and executed.
   */
  async runToolCall(call: {
    readonly callId: string;
    readonly caller: ToolCaller;
    readonly turn?: number;
    readonly callIndex?: number;
    readonly toolName: string;
    readonly args: unknown;
    readonly execute: () => unknown;
    /** When this signal has fired, a failure is an interruption: nothing terminal is recorded. */
    readonly abortSignal?: AbortSignal;
  }): Promise<unknown> {
    const { callId, caller, toolName } = call;
    const args = recordedArgs(call.args);
    const recorded = this.ledger.toolCalls.get(callId);
    if (recorded?.started !== undefined) {
      const recordedHash = sha256Digest({ toolName: recorded.started.toolName, args: recorded.started.args });
      const currentHash = sha256Digest({ toolName, args });
      if (recordedHash !== currentHash) {
        throw new ReplayDivergenceError({
          runId: this.options.runId,
          sessionId: this.options.sessionId,
          ...(call.turn === undefined ? { position: `code tool call ${call.callIndex ?? "?"}` } : { turn: call.turn }),
          what: `tool call ${callId} (${toolName}) and its arguments`,
          recordedHash,
          currentHash,
        });
      }
    }
    const terminal = recorded?.terminal;
    if (terminal !== undefined) {
      this.stats.replayedToolCalls += 1;
      if (terminal.type === "harness.tool_call.succeeded") return terminal.payload.result;
      const error = terminal.payload.error;
      throw new RecordedToolCallError({ callId, name: error.name, message: error.message, ...(error.code === undefined ? {} : { code: error.code }) });
    }
    const stepPath = this.options.stepPath;
    // Spreads go last in these literals: on Node 20 a literal opening with a spread defines each
    // key added after it through a slow runtime call (~0.8 µs each; README, "No literal opening
    // with a spread").
    const base = {
      callId,
      caller,
      toolName,
      args,
      ...(call.turn === undefined ? {} : { turn: call.turn }),
      ...(call.callIndex === undefined ? {} : { callIndex: call.callIndex }),
      ...(stepPath === undefined ? {} : { stepPath }),
    };
    if (recorded?.started === undefined) await this.append([{ type: "harness.tool_call.started", payload: base }]);
    this.stats.liveToolCalls += 1;
    const startedAt = performance.now();
    let result: unknown;
    try {
      result = await settleToolOutput(call.execute());
      result = toToolResultJson({ value: result, toolName, callId });
    } catch (error) {
      // An aborted call did not fail: it stays in flight and runs again on resume.
      if (call.abortSignal?.aborted === true) throw error;
      const durationMs = Math.round(performance.now() - startedAt);
      await this.append([{ type: "harness.tool_call.failed", payload: { error: toErrorEnvelope(error), durationMs, ...base } }]);
      throw error;
    }
    const durationMs = Math.round(performance.now() - startedAt);
    await this.append([{ type: "harness.tool_call.succeeded", payload: { result, durationMs, ...base } }]);
    return result;
  }

  requireToolCallTurn(callId: string, toolName: string): number {
    const turn = this.toolCallTurns.get(callId);
    if (turn === undefined) {
      throw new HarnessSessionError(
        "harness.unknown_tool_call",
        `Tool "${toolName}" was called with id ${callId}, which no model response of session ${this.options.sessionId} requested. Wrap the model with session.wrapModel(...) whenever you pass session.wrapTools(...).`,
        { callId, toolName },
      );
    }
    return turn;
  }
}

/** Awaits a tool's output; a streaming tool (async iterable) yields its last value. */
async function settleToolOutput(output: unknown): Promise<unknown> {
  const value = await output;
  if (value !== null && typeof value === "object" && Symbol.asyncIterator in value) {
    let last: unknown;
    for await (const item of value as AsyncIterable<unknown>) last = item;
    return last;
  }
  return value;
}

function toJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * The arguments as recorded: a copy, so a tool that changes its input cannot change the record. A
 * canonical snapshot when they are plain JSON (the usual case): its text is made once and spliced
 * into the call's `started` and `succeeded`/`failed` payloads (and the replay check's hash), which
 * otherwise each walked the arguments again — 138 → 71 µs for 14 KB of arguments, 1.6 → 1.2 µs for
 * `{ i: 0 }`. Anything else (a Date, an undefined field) is copied as JSON.stringify sees it, as
 * before. The copy is frozen, and only the record holds it: the tool gets its own input.
 */
function recordedArgs(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return canonicalSnapshot(value).value;
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    return toJson(value) ?? null;
  }
}

/**
 * Tool results are recorded as JSON; `undefined` becomes null (live and replay agree). The result
 * goes on as a canonical snapshot — a frozen copy made with its text in one walk, which proves it
 * is JSON — so its `succeeded` payload, the step's output check, its `StepCompleted` and the
 * output's digest splice that text instead of walking the result again (a 14 KB result was walked
 * four times more). Frozen, it is what was recorded: the tool keeps its own object, and a later
 * step that reads it through a template gets a copy (lwir's `resolveTemplates`).
 */
function toToolResultJson(options: { value: unknown; toolName: string; callId: string }): unknown {
  if (options.value === undefined) return null;
  try {
    return canonicalSnapshot(options.value).value;
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new ToolResultNotJsonError({ toolName: options.toolName, callId: options.callId, problem: error.message });
  }
}
