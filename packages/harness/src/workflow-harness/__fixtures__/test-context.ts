import { sha256DigestOfBytes } from "@little-stack/canonical";
import type { LwirCodeFile } from "@little-stack/lwir";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { workerManifest, plannerManifest } from "../../__fixtures__/manifests.js";
import type { HarnessRole, ResolvedModel } from "../../contract/harness.js";
import type { FixerManifest, HarnessManifest } from "../../contract/manifests.js";
import { createHarnessEventRecorder } from "../../events/harness-event-recorder.js";
import type { HarnessEventEnvelope } from "../../events/harness-event-types.js";
import { createMemoryHarnessEventSink, type MemoryHarnessEventSink } from "../../events/memory-harness-event-sink.js";
import type { WorkflowHarnessContext } from "../workflow-harness-context.js";

export const testRunId = "run_00000000000000aa";

export const fixerManifest: FixerManifest = { ...workerManifest, fixerModelSlotId: "fixer-model", fixerSystemHash: sha256DigestOfBytes("fix it"), fixerMaxAttempts: 3 };

/** A model that must not be called (steps without a model slot). */
export const refusingModel: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "none",
  modelId: "none",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error("this step must not call a model")),
  doStream: () => Promise.reject(new Error("this step must not call a model")),
};

export function resolvedModel(model: LanguageModelV3): ResolvedModel {
  return { slotId: "fast", provider: model.provider, modelId: model.modelId, model };
}

/**
 * A WorkflowHarnessContext over a real validating recorder and an in-memory sink (the real sink
 * interface). `events` seeds the log, as a resumed run would find it.
 */
export function testContext(
  options: {
    readonly role?: HarnessRole;
    readonly model?: LanguageModelV3;
    readonly tools?: ToolSet;
    readonly manifest?: HarnessManifest;
    readonly events?: readonly HarnessEventEnvelope[];
    readonly extra?: Partial<WorkflowHarnessContext>;
  } = {},
): { ctx: WorkflowHarnessContext; sink: MemoryHarnessEventSink } {
  const sink = createMemoryHarnessEventSink(testRunId, options.events ?? []);
  const role = options.role ?? "worker.tool-call";
  const ctx: WorkflowHarnessContext = {
    scope: { runId: testRunId, logDir: "/tmp/unused", role },
    model: resolvedModel(options.model ?? refusingModel),
    tools: options.tools ?? {},
    memoryMounts: [],
    scratchMounts: [],
    skills: [],
    mounts: [],
    durability: sink,
    recorder: createHarnessEventRecorder({ sink }),
    abortSignal: new AbortController().signal,
    manifest: options.manifest ?? (role === "planner" ? plannerManifest : role === "fixer" ? fixerManifest : workerManifest),
    ...options.extra,
  };
  return { ctx, sink };
}

export function codeFile(content: string): LwirCodeFile {
  return { content, sha256: sha256DigestOfBytes(content) };
}

export function eventTypes(events: readonly HarnessEventEnvelope[]): string[] {
  return events.map((event) => event.type.replace(/^harness\./, ""));
}

export function payloadsOf(events: readonly HarnessEventEnvelope[], type: string): Record<string, unknown>[] {
  return events.filter((event) => event.type === type).map((event) => event.payload as Record<string, unknown>);
}
