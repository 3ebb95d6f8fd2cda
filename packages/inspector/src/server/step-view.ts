import type { EventEnvelope, World } from "@little-stack/local-world";
import { resolveTemplates } from "@little-stack/lwir";
import { priceModelCall } from "@little-stack/models";
import { resolveModelCallRequests, type RunState } from "@little-stack/runtime";
import { diffLines } from "diff";
import { readRun } from "./run-views.js";

type Payload = Record<string, unknown>;

export type ModelCallView = {
  readonly callId: string;
  readonly turn: number;
  readonly model: string;
  /** The recorded prompt: messages as the model received them. */
  readonly messages: readonly unknown[];
  readonly tools: readonly string[];
  readonly status: "in_flight" | "responded" | "failed";
  readonly text: string | null;
  readonly reasoning: string | null;
  readonly toolCalls: readonly { readonly callId: string; readonly toolName: string; readonly args: unknown }[];
  readonly usage: { readonly inputTokens: number; readonly cachedInputTokens: number; readonly outputTokens: number; readonly reasoningTokens: number } | null;
  /** cachedInputTokens / inputTokens, null without input tokens. */
  readonly cachedShare: number | null;
  /** null when the model has no price in the registry (shown as n/a, never as $0). */
  readonly costUsd: number | null;
  readonly durationMs: number | null;
  readonly error: unknown;
};

export type ToolCallView = {
  readonly callId: string;
  readonly toolName: string;
  readonly caller: string;
  readonly turn: number | null;
  readonly args: unknown;
  readonly status: "in_flight" | "succeeded" | "failed";
  readonly result: unknown;
  readonly error: unknown;
  readonly durationMs: number | null;
};

export type DiffPart = { readonly kind: "added" | "removed" | "same"; readonly text: string };

export type AttemptView = {
  readonly attempt: number;
  readonly status: "running" | "completed" | "failed";
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly output: unknown;
  readonly outputRef: string | null;
  readonly artifacts: readonly { readonly id: string; readonly name: string; readonly contentType: string; readonly size: number }[];
  readonly error: unknown;
  readonly modelCalls: readonly ModelCallView[];
  readonly toolCalls: readonly ToolCallView[];
  /** The fixer's source against the step's, when the fixer ran on this attempt. */
  readonly fixedSourceDiff: readonly DiffPart[] | null;
  readonly fixerSessions: number;
};

export type StepView = {
  readonly runId: string;
  readonly stepPath: string;
  readonly stepId: string;
  readonly uses: string;
  readonly status: string;
  readonly step: unknown;
  /** The input the step received: the tool's arguments, the model's user message, or `input` resolved from the log. */
  readonly input: { readonly value: unknown; readonly source: string } | null;
  readonly attempts: readonly AttemptView[];
};

/** Everything the step page shows for one step path of a run. */
export async function stepView(world: World, runId: string, stepPath: string): Promise<StepView | undefined> {
  const run = await readRun(world, runId);
  if (run === undefined) return undefined;
  const { state } = run;
  const events = wholePrompts(run.events);
  const stepState = state.steps[stepPath];
  if (stepState === undefined) return undefined;
  const step = findStep((state.lwir as { steps?: unknown[] } | undefined)?.steps ?? [], stepState.stepId, stepPath);
  const attempts = await attemptsOf({ world, events, stepPath, step });
  return {
    runId,
    stepPath,
    stepId: stepState.stepId,
    uses: stepState.uses,
    status: stepState.status,
    step: step ?? null,
    input: inputOf({ attempts, step, state, stepPath, events }),
    attempts,
  };
}

/**
 * The events with each model call's whole prompt (a call recorded after a prompt prefix holds only
 * its new messages). A log whose prefixes do not resolve is shown as recorded rather than not at all.
 */
function wholePrompts(events: readonly EventEnvelope[]): readonly EventEnvelope[] {
  try {
    return resolveModelCallRequests(events);
  } catch {
    return events;
  }
}

function findStep(steps: readonly unknown[], stepId: string, stepPath: string): Payload | undefined {
  const inBranch = /^([^[.@]+)(@attempt_\d+)?\[/.exec(stepPath);
  if (inBranch !== null) {
    const group = steps.find((step) => (step as Payload)["id"] === inBranch[1]) as Payload | undefined;
    return ((group?.["steps"] as unknown[] | undefined) ?? []).find((step) => (step as Payload)["id"] === stepId) as Payload | undefined;
  }
  return steps.find((step) => (step as Payload)["id"] === stepId) as Payload | undefined;
}

async function attemptsOf(options: { world: World; events: readonly EventEnvelope[]; stepPath: string; step: Payload | undefined }): Promise<AttemptView[]> {
  const { stepPath } = options;
  const attempts: ({ -readonly [K in keyof Omit<AttemptView, "modelCalls" | "toolCalls" | "artifacts">]: AttemptView[K] } & { modelCalls: Map<string, Payload>; toolCalls: Map<string, Payload>; artifactRefs: string[]; fixer: number })[] = [];
  let fixerSessions = new Set<string>();
  for (const event of options.events) {
    const payload = (event.payload ?? {}) as Payload;
    const current = attempts.at(-1);
    if (event.type === "StepAttemptStarted" && payload["stepPath"] === stepPath) {
      fixerSessions = new Set();
      // The attempt's own start (a tool.call step's StepAttemptStarted is recorded at the step's end, with its StepCompleted).
      const loggedStart = typeof payload["startedAt"] === "string" && Number.isFinite(Date.parse(payload["startedAt"])) ? payload["startedAt"] : undefined;
      attempts.push({ attempt: Number(payload["attempt"] ?? attempts.length + 1), status: "running", startedAt: loggedStart ?? event.recordedAt, endedAt: null, output: null, outputRef: null, error: null, modelCalls: new Map(), toolCalls: new Map(), artifactRefs: [], fixedSourceDiff: null, fixerSessions: 0, fixer: 0 });
      continue;
    }
    if (current === undefined) continue;
    const sameStep = payload["stepPath"] === stepPath || ((payload["manifest"] as Payload | undefined)?.["stepPath"] === stepPath && event.type === "harness.session.started");
    if (!sameStep) continue;
    switch (event.type) {
      case "StepCompleted":
      case "StepFailed": {
        current.status = event.type === "StepCompleted" ? "completed" : "failed";
        current.endedAt = event.recordedAt;
        current.output = payload["output"] ?? null;
        current.outputRef = typeof payload["outputRef"] === "string" ? (payload["outputRef"] as string) : null;
        current.error = payload["error"] ?? null;
        current.artifactRefs.push(...((payload["artifactRefs"] as string[] | undefined) ?? []));
        if (typeof payload["fixedSource"] === "string") current.fixedSourceDiff = diffOf(sourceOf(options.step), payload["fixedSource"] as string);
        break;
      }
      case "harness.session.started":
        if (payload["role"] === "fixer") {
          fixerSessions.add(String(payload["sessionId"]));
          current.fixer = fixerSessions.size;
        }
        break;
      case "harness.model.called":
      case "harness.model.responded":
      case "harness.model.failed": {
        const callId = String(payload["callId"] ?? `turn-${String(payload["turn"])}`);
        current.modelCalls.set(callId, { ...current.modelCalls.get(callId), [event.type]: payload });
        break;
      }
      case "harness.tool_call.started":
      case "harness.tool_call.succeeded":
      case "harness.tool_call.failed": {
        const callId = String(payload["callId"]);
        current.toolCalls.set(callId, { ...current.toolCalls.get(callId), [event.type]: payload });
        break;
      }
      default:
        break;
    }
  }
  const views: AttemptView[] = [];
  for (const attempt of attempts) {
    let output = attempt.output;
    if (output === null && attempt.outputRef?.startsWith("art_") === true) output = await options.world.readArtifactJson(attempt.outputRef).catch((error: unknown) => ({ unreadable: String(error) }));
    const artifacts = [];
    for (const id of attempt.artifactRefs) {
      const manifest = await options.world.getArtifactManifest(id).catch(() => undefined);
      if (manifest !== undefined) artifacts.push({ id, name: manifest.name, contentType: manifest.contentType, size: manifest.size });
    }
    views.push({
      attempt: attempt.attempt,
      status: attempt.status,
      startedAt: attempt.startedAt,
      endedAt: attempt.endedAt,
      output,
      outputRef: attempt.outputRef,
      artifacts,
      error: attempt.error,
      modelCalls: [...attempt.modelCalls.values()].map(modelCallView),
      toolCalls: [...attempt.toolCalls.values()].map(toolCallView),
      fixedSourceDiff: attempt.fixedSourceDiff,
      fixerSessions: attempt.fixer,
    });
  }
  return views;
}

function modelCallView(entry: Payload): ModelCallView {
  const called = entry["harness.model.called"] as Payload | undefined;
  const responded = entry["harness.model.responded"] as Payload | undefined;
  const failed = entry["harness.model.failed"] as Payload | undefined;
  const request = (called?.["request"] ?? {}) as Payload;
  const model = ((responded ?? failed)?.["model"] ?? {}) as { provider?: string; modelId?: string };
  const response = (responded?.["response"] ?? {}) as Payload;
  const usage = response["usage"] as { inputTokens: number; outputTokens: number; cachedInputTokens?: number; reasoningTokens?: number } | undefined;
  const normalized = usage === undefined ? null : { inputTokens: usage.inputTokens, cachedInputTokens: usage.cachedInputTokens ?? 0, outputTokens: usage.outputTokens, reasoningTokens: usage.reasoningTokens ?? 0 };
  let costUsd: number | null = null;
  if (normalized !== null && model.provider !== undefined && model.modelId !== undefined) {
    try {
      costUsd = priceModelCall({ provider: model.provider, modelId: model.modelId, usage: normalized }).costUsd;
    } catch {
      costUsd = null;
    }
  }
  const modelName = model.provider === undefined ? String(request["model"] ?? "?") : `${model.provider}:${String(model.modelId)}`;
  return {
    callId: String((responded ?? failed ?? called)?.["callId"] ?? ""),
    turn: Number((responded ?? failed ?? called)?.["turn"] ?? 0),
    model: modelName,
    messages: (request["messages"] as unknown[] | undefined) ?? [],
    tools: ((request["tools"] as { name: string }[] | undefined) ?? []).map((tool) => tool.name),
    status: responded !== undefined ? "responded" : failed !== undefined ? "failed" : "in_flight",
    text: typeof response["text"] === "string" ? (response["text"] as string) : null,
    reasoning: typeof response["reasoning"] === "string" ? (response["reasoning"] as string) : null,
    toolCalls: (response["toolCalls"] as ModelCallView["toolCalls"] | undefined) ?? [],
    usage: normalized,
    cachedShare: normalized === null || normalized.inputTokens === 0 ? null : normalized.cachedInputTokens / normalized.inputTokens,
    costUsd,
    durationMs: typeof responded?.["durationMs"] === "number" ? (responded["durationMs"] as number) : null,
    error: failed?.["error"] ?? null,
  };
}

function toolCallView(entry: Payload): ToolCallView {
  const started = entry["harness.tool_call.started"] as Payload | undefined;
  const succeeded = entry["harness.tool_call.succeeded"] as Payload | undefined;
  const failed = entry["harness.tool_call.failed"] as Payload | undefined;
  const any = (started ?? succeeded ?? failed)!;
  const end = succeeded ?? failed;
  return {
    callId: String(any["callId"]),
    toolName: String(any["toolName"]),
    caller: String(any["caller"] ?? "model"),
    turn: typeof any["turn"] === "number" ? (any["turn"] as number) : null,
    args: any["args"] ?? null,
    status: succeeded !== undefined ? "succeeded" : failed !== undefined ? "failed" : "in_flight",
    result: succeeded?.["result"] ?? null,
    error: failed?.["error"] ?? null,
    durationMs: typeof end?.["durationMs"] === "number" ? (end["durationMs"] as number) : null,
  };
}

/** The entrypoint source of a code.run step (what the fixer rewrote). */
function sourceOf(step: Payload | undefined): string {
  const config = (step?.["with"] ?? {}) as { entrypoint?: string; files?: Record<string, { content?: string }> };
  return config.entrypoint === undefined ? "" : (config.files?.[config.entrypoint]?.content ?? "");
}

function diffOf(before: string, after: string): DiffPart[] {
  return diffLines(before, after).map((part) => ({ kind: part.added ? "added" : part.removed ? "removed" : "same", text: part.value }));
}

/**
 * The input the step received, from what the log recorded: a tool.call's arguments, an
 * ai.generate's user message; a code.run's declared `input` resolved against the recorded
 * outputs (else the run input, or the branch item).
 */
function inputOf(options: { attempts: readonly AttemptView[]; step: Payload | undefined; state: RunState; stepPath: string; events: readonly EventEnvelope[] }): StepView["input"] {
  const first = options.attempts[0];
  const uses = options.step?.["uses"];
  if (uses === "tool.call" && first?.toolCalls[0] !== undefined) return { value: first.toolCalls[0].args, source: `the arguments of tool ${first.toolCalls[0].toolName}` };
  if (uses === "ai.generate" && first?.modelCalls[0] !== undefined) {
    const user = first.modelCalls[0].messages.find((message) => (message as Payload)["role"] === "user");
    return user === undefined ? null : { value: (user as Payload)["content"], source: "the user message of the first model call" };
  }
  if (uses === "decision" || uses === "parallel") return null;
  const item = branchItemOf(options.state, options.stepPath, options.events);
  const declared = options.step?.["input"];
  if (declared === undefined) return item === undefined ? { value: options.state.input ?? null, source: "the run input" } : { value: item, source: "the branch item" };
  try {
    const value = resolveTemplates(declared, { input: options.state.input ?? null, ...(item === undefined ? {} : { item }), steps: stepOutputs(options.state) } as never);
    return { value, source: "the step's input, resolved from the recorded outputs" };
  } catch (error) {
    return { value: declared, source: `the step's input template (not resolvable from the log: ${error instanceof Error ? error.message : String(error)})` };
  }
}

function stepOutputs(state: RunState): Record<string, { output: unknown; lastOutput: unknown; allVisits: unknown[] }> {
  const outputs: Record<string, { output: unknown; lastOutput: unknown; allVisits: unknown[] }> = {};
  for (const step of Object.values(state.steps)) {
    if (step.status !== "completed") continue;
    const entry = (outputs[step.stepId] ??= { output: null, lastOutput: null, allVisits: [] });
    entry.output = step.output ?? null;
    entry.lastOutput = step.output ?? null;
    entry.allVisits.push(step.output ?? null);
  }
  return outputs;
}

function branchItemOf(state: RunState, stepPath: string, events: readonly EventEnvelope[]): unknown {
  const branch = Object.values(state.steps).find((step) => step.stepPath === stepPath)?.parallel;
  if (branch === undefined) return undefined;
  const scheduled = events.find((event) => event.type === "ParallelBranchScheduled" && (event.payload as Payload)["stepPath"] === branch.groupPath && (event.payload as Payload)["itemKey"] === branch.itemKey);
  const index = Number((scheduled?.payload as Payload | undefined)?.["index"] ?? -1);
  // The items are not recorded: resolve the group's `with.items` the way the runtime did.
  const groupId = branch.groupPath.split(/[.@[]/)[0]!;
  const group = ((state.lwir as { steps?: Payload[] } | undefined)?.steps ?? []).find((step) => step["id"] === groupId);
  try {
    const items = resolveTemplates((group?.["with"] as Payload | undefined)?.["items"], { input: state.input ?? null, steps: stepOutputs(state) } as never);
    if (Array.isArray(items) && index >= 0 && index < items.length) return items[index];
  } catch {
    // Fall through: the key is what the log names for sure.
  }
  return { itemKey: branch.itemKey };
}
