import { createRequire } from "node:module";
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { RunEvent, RunEventListener } from "@little-stack/runtime";
import { OtelSetupError } from "./otel-setup-error.js";
import { spanIdFor, traceIdFor, type PlannedSpanIds } from "./span-ids.js";

type OtelApi = typeof import("@opentelemetry/api");
type Payload = Record<string, unknown>;

export type RunTracerOptions = {
  /** Where spans are made: a tracer of your OpenTelemetry SDK (`provider.getTracer("little-workflow")`). */
  readonly tracer: Tracer;
  /**
   * Called right before each span starts with the deterministic ids it should get; give it the
   * `plan` of `plannedIdGenerator()` when your provider uses that generator (`otlpHttpTracing`
   * does), so a run resumed in another process continues the same trace. Without it the SDK's own
   * ids are used.
   */
  readonly planIds?: (ids: PlannedSpanIds) => void;
};

export type RunTracer = {
  /** Give it to `runWorkflow` / `runOrchestration` / `executeWorkflowVersion` as `onEvent`. */
  readonly onEvent: RunEventListener;
  /** Ends the run spans still open at their last event (plan runs of a pipeline have no end event). */
  endOpenRuns(): void;
};

type RunTrack = {
  readonly runId: string;
  parentRunId: string | undefined;
  firstAtMs: number;
  lastAtMs: number;
  workflowVersionId: string | undefined;
  orchestratorSessionId: string | undefined;
  span: Span | undefined;
  ended: boolean;
};

type AttemptTrack = { readonly runId: string; readonly stepPath: string; readonly stepId: string; readonly attempt: number; readonly attemptId: string | undefined; readonly startedAtMs: number; span: Span | undefined };

/**
 * Turns a run's live events into OpenTelemetry spans: one per run (and per sub-run, under its
 * pipeline's), per step attempt, per model call (GenAI semantic conventions: `chat <model>`, the
 * provider, model and token counts) and per tool call (`execute_tool <name>`, with its caller),
 * each carrying the run id and, where it has one, the step path.
 *
 * A span is made when the event that ends it is committed — never for replayed events — so a
 * resumed run traces only the work it does itself: recorded steps and calls are not traced again.
 * Start times come from the log: a call's `durationMs` before its result, a step's
 * `StepAttemptStarted.startedAt` (or its first call's start, if earlier; the event itself is
 * committed with the attempt's first result, so its `recordedAt` can be late).
 */
export async function createRunTracer(options: RunTracerOptions): Promise<RunTracer> {
  let api: OtelApi;
  try {
    // The CommonJS build, as the SDK packages load it: one copy of the API's global registry.
    api = createRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
  } catch (error) {
    throw new OtelSetupError({ packages: ["@opentelemetry/api"], cause: error });
  }
  return runTracerWith(api, options);
}

function runTracerWith(api: OtelApi, options: RunTracerOptions): RunTracer {
  const { tracer } = options;
  const runs = new Map<string, RunTrack>();
  const attempts = new Map<string, AttemptTrack>();
  const calledModels = new Map<string, Payload>();

  const rootOf = (run: RunTrack): string => {
    let current = run;
    for (let depth = 0; depth < 20 && current.parentRunId !== undefined; depth += 1) {
      const parent = runs.get(current.parentRunId);
      if (parent === undefined) break;
      current = parent;
    }
    return current.runId;
  };

  const start = (name: string, ids: PlannedSpanIds, startMs: number, attributes: Attributes, parent: Context, kind = api.SpanKind.INTERNAL): Span => {
    options.planIds?.(ids);
    return tracer.startSpan(name, { kind, startTime: startMs, attributes }, parent);
  };

  const runSpan = (run: RunTrack, childStartMs: number): Span => {
    if (run.span !== undefined) return run.span;
    const parentRun = run.parentRunId === undefined ? undefined : runs.get(run.parentRunId);
    const parentContext = parentRun === undefined ? api.ROOT_CONTEXT : api.trace.setSpan(api.ROOT_CONTEXT, runSpan(parentRun, Math.min(run.firstAtMs, childStartMs)));
    run.span = start(
      `little.run ${run.runId}`,
      { traceId: traceIdFor(rootOf(run)), spanId: spanIdFor("run", run.runId) },
      Math.min(run.firstAtMs, childStartMs),
      { "little.run.id": run.runId, ...(run.parentRunId === undefined ? {} : { "little.run.parent_id": run.parentRunId }), ...(run.workflowVersionId === undefined ? {} : { "little.workflow_version.id": run.workflowVersionId }) },
      parentContext,
    );
    return run.span;
  };

  const attemptSpan = (run: RunTrack, attempt: AttemptTrack, childStartMs: number): Span => {
    if (attempt.span !== undefined) return attempt.span;
    const startMs = Math.min(attempt.startedAtMs, childStartMs);
    attempt.span = start(
      `little.step ${attempt.stepPath}`,
      { traceId: traceIdFor(rootOf(run)), spanId: spanIdFor("step", run.runId, attempt.stepPath, attempt.attempt) },
      startMs,
      {
        "little.run.id": run.runId,
        "little.step.path": attempt.stepPath,
        "little.step.id": attempt.stepId,
        "little.step.attempt": attempt.attempt,
        ...(attempt.attemptId === undefined ? {} : { "little.step.attempt_id": attempt.attemptId }),
      },
      api.trace.setSpan(api.ROOT_CONTEXT, runSpan(run, startMs)),
    );
    return attempt.span;
  };

  /** The open attempt a call belongs to, else the run (planner and orchestrator calls). */
  const parentFor = (run: RunTrack, stepPath: unknown, childStartMs: number): Context => {
    const attempt = typeof stepPath === "string" ? attempts.get(`${run.runId}\u0000${stepPath}`) : undefined;
    return api.trace.setSpan(api.ROOT_CONTEXT, attempt === undefined ? runSpan(run, childStartMs) : attemptSpan(run, attempt, childStartMs));
  };

  const endRun = (run: RunTrack, atMs: number, error: Payload | undefined): void => {
    if (run.ended) return;
    const span = runSpan(run, atMs);
    if (error !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(error["message"] ?? "") });
    if (typeof error?.["causeCode"] === "string") span.setAttribute("little.run.cause_code", error["causeCode"] as string);
    span.end(atMs);
    run.ended = true;
  };

  const onEvent = (event: RunEvent): void => {
    if (event.ephemeral) return;
    const payload = (event.payload ?? {}) as Payload;
    const atMs = Date.parse(event.recordedAt);
    let run = runs.get(event.runId);
    if (run === undefined) {
      run = { runId: event.runId, parentRunId: undefined, firstAtMs: atMs, lastAtMs: atMs, workflowVersionId: undefined, orchestratorSessionId: undefined, span: undefined, ended: false };
      runs.set(event.runId, run);
    }
    run.lastAtMs = Math.max(run.lastAtMs, atMs);
    const live = !event.replayed;
    switch (event.type) {
      case "RunStarted":
        if (typeof payload["parentRunId"] === "string") run.parentRunId = payload["parentRunId"] as string;
        if (typeof payload["workflowVersionId"] === "string") run.workflowVersionId = payload["workflowVersionId"] as string;
        break;
      case "harness.session.started":
        if (run.parentRunId === undefined && typeof payload["parentRunId"] === "string") run.parentRunId = payload["parentRunId"] as string;
        if (payload["role"] === "orchestrator" && run.orchestratorSessionId === undefined) run.orchestratorSessionId = String(payload["sessionId"]);
        break;
      case "StepAttemptStarted": {
        const stepPath = String(payload["stepPath"]);
        attempts.set(`${run.runId}\u0000${stepPath}`, {
          runId: run.runId,
          stepPath,
          stepId: String(payload["stepId"] ?? stepPath),
          attempt: Number(payload["attempt"] ?? 1),
          attemptId: typeof payload["attemptId"] === "string" ? (payload["attemptId"] as string) : undefined,
          // The attempt's own start: the event is committed with the attempt's first result (a
          // tool.call or code.run step's), so its recordedAt can be late.
          startedAtMs: loggedStartMs(payload) ?? atMs,
          span: undefined,
        });
        break;
      }
      case "StepCompleted":
      case "StepFailed": {
        const key = `${run.runId}\u0000${String(payload["stepPath"])}`;
        const attempt = attempts.get(key);
        attempts.delete(key);
        if (!live || attempt === undefined) break;
        const span = attemptSpan(run, attempt, atMs);
        if (event.type === "StepFailed") {
          const error = (payload["error"] ?? {}) as Payload;
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(error["message"] ?? "") });
          if (typeof error["causeCode"] === "string") span.setAttribute("little.step.cause_code", error["causeCode"] as string);
        }
        span.end(atMs);
        break;
      }
      case "harness.model.called":
        calledModels.set(`${run.runId}\u0000${String(payload["callId"])}`, payload);
        break;
      case "harness.model.responded":
      case "harness.model.failed": {
        const key = `${run.runId}\u0000${String(payload["callId"])}`;
        const called = calledModels.get(key);
        calledModels.delete(key);
        if (!live) break;
        const model = (payload["model"] ?? {}) as { provider?: string; modelId?: string };
        const response = (payload["response"] ?? {}) as { usage?: Payload; finishReason?: string };
        const usage = response.usage ?? {};
        const startMs = atMs - Number(payload["durationMs"] ?? 0);
        const span = start(
          `chat ${String(model.modelId)}`,
          { traceId: traceIdFor(rootOf(run)), spanId: spanIdFor("model", run.runId, String(payload["callId"])) },
          startMs,
          {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": String(model.provider),
            "gen_ai.system": String(model.provider),
            "gen_ai.request.model": String(model.modelId),
            "gen_ai.response.model": String(model.modelId),
            ...(typeof usage["inputTokens"] === "number" ? { "gen_ai.usage.input_tokens": usage["inputTokens"] as number } : {}),
            ...(typeof usage["outputTokens"] === "number" ? { "gen_ai.usage.output_tokens": usage["outputTokens"] as number } : {}),
            ...(typeof usage["cachedInputTokens"] === "number" ? { "gen_ai.usage.cache_read.input_tokens": usage["cachedInputTokens"] as number } : {}),
            ...(typeof usage["reasoningTokens"] === "number" ? { "gen_ai.usage.reasoning.output_tokens": usage["reasoningTokens"] as number } : {}),
            ...(response.finishReason === undefined ? {} : { "gen_ai.response.finish_reasons": [response.finishReason] }),
            "gen_ai.response.id": String(payload["callId"]),
            "little.run.id": run.runId,
            "little.model.call_id": String(payload["callId"]),
            "little.model.turn": Number(payload["turn"] ?? 0),
            ...(typeof payload["stepPath"] === "string" ? { "little.step.path": payload["stepPath"] as string } : {}),
            ...(called === undefined ? {} : { "little.model.prompt_hash": String(called["promptHash"]) }),
          },
          parentFor(run, payload["stepPath"], startMs),
          api.SpanKind.CLIENT,
        );
        if (event.type === "harness.model.failed") span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(((payload["error"] ?? {}) as Payload)["message"] ?? "") });
        span.end(atMs);
        break;
      }
      case "harness.tool_call.succeeded":
      case "harness.tool_call.failed": {
        if (!live) break;
        const startMs = atMs - Number(payload["durationMs"] ?? 0);
        const toolName = String(payload["toolName"]);
        const span = start(
          `execute_tool ${toolName}`,
          { traceId: traceIdFor(rootOf(run)), spanId: spanIdFor("tool", run.runId, String(payload["callId"])) },
          startMs,
          {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": toolName,
            "gen_ai.tool.call.id": String(payload["callId"]),
            "little.run.id": run.runId,
            "little.tool.caller": String(payload["caller"] ?? "model"),
            ...(typeof payload["stepPath"] === "string" ? { "little.step.path": payload["stepPath"] as string } : {}),
          },
          parentFor(run, payload["stepPath"], startMs),
        );
        if (event.type === "harness.tool_call.failed") span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(((payload["error"] ?? {}) as Payload)["message"] ?? "") });
        span.end(atMs);
        break;
      }
      case "harness.session.completed":
      case "harness.session.failed":
        if (live && run.orchestratorSessionId !== undefined && payload["sessionId"] === run.orchestratorSessionId) endRun(run, atMs, event.type === "harness.session.failed" ? ((payload["error"] ?? {}) as Payload) : undefined);
        break;
      case "RunCompleted":
        if (live) endRun(run, atMs, undefined);
        break;
      case "RunFailed":
        if (live) endRun(run, atMs, (payload["error"] ?? {}) as Payload);
        break;
      default:
        break;
    }
  };

  return {
    onEvent,
    endOpenRuns() {
      for (const run of runs.values()) if (!run.ended && run.span !== undefined) endRun(run, run.lastAtMs, undefined);
    },
  };
}

/** `StepAttemptStarted.startedAt` in epoch ms, when the payload carries a valid one. */
function loggedStartMs(payload: Payload): number | undefined {
  const startedAt = payload["startedAt"];
  const ms = typeof startedAt === "string" ? Date.parse(startedAt) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}
