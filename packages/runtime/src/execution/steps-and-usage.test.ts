import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { codeFiles, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

function textModel(options: { provider: string; modelId: string; text: string; input: number; output: number; cached?: number }) {
  let calls = 0;
  const model = new MockLanguageModelV3({
    provider: options.provider,
    modelId: options.modelId,
    doGenerate: async () => {
      calls += 1;
      return {
        content: [{ type: "text", text: options.text }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: options.input, noCache: options.input - (options.cached ?? 0), cacheRead: options.cached ?? 0, cacheWrite: undefined },
          outputTokens: { total: options.output, text: options.output, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls };
}

describe("ai.generate, usage and cost", () => {
  it("records usage per step and in total, with cost derived from the registry and null when unpriced", async () => {
    const world = memoryWorld();
    const priced = textModel({ provider: "openai.chat", modelId: "gpt-4o-mini", text: "summary", input: 1_000, output: 200, cached: 400 });
    const unpriced = textModel({ provider: "acme", modelId: "mystery-1", text: "{\"ok\":true}", input: 10, output: 5 });
    const steps = [
      { id: "summarize", uses: "ai.generate", with: { model: "fast", prompt: "Summarize {{ input.topic }}", system: "Be brief." }, output: { mode: "text" } },
      { id: "judge", uses: "ai.generate", needs: ["summarize"], with: { model: "odd", prompt: "Judge {{ steps.summarize.output }}" }, output: { mode: "object", schema: { type: "object" } } },
    ] as LwirStep[];
    const lwir = lwirDocument({ steps, models: ["fast", "odd"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { topic: "tides" }, models: { fast: priced.model, odd: unpriced.model }, workerHarness: createFakeWorkerHarness(), runId: "run-ai" });
    expect(result.output).toEqual({ ok: true });
    expect(priced.model.doGenerateCalls[0]!.prompt.some((message) => JSON.stringify(message).includes("Summarize tides"))).toBe(true);
    expect(result.usage).toMatchObject({ inputTokens: 1_010, outputTokens: 205, cachedInputTokens: 400, pricedCalls: 1, unpricedCalls: 1 });
    expect(typeof result.usage.costUsd).toBe("number");
    expect(result.usage.costUsd).toBeGreaterThan(0);
    const state = await replayRun(world, "run-ai");
    expect(state.steps.summarize!.usage.costUsd).toBe(result.usage.costUsd);
    expect(state.steps.judge!.usage).toMatchObject({ inputTokens: 10, costUsd: null, unpricedCalls: 1 });
    const completed = result.events.find((event) => event.type === "StepCompleted")!.payload as { metadata: { usage?: Record<string, unknown> } };
    expect(completed.metadata.usage).toEqual({ inputTokens: 1_000, outputTokens: 200, cachedInputTokens: 400, reasoningTokens: 0 });
    expect(JSON.stringify(result.events)).not.toContain("costUsd");
  });

  it("fails with runtime_config_error when a model slot is missing", async () => {
    const world = memoryWorld();
    const steps = [{ id: "g", uses: "ai.generate", with: { model: "fast", prompt: "hi" }, output: { mode: "text" }, retry: { maxAttempts: 3 } }] as LwirStep[];
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, models: ["fast"] })), input: {}, workerHarness: createFakeWorkerHarness(), runId: "run-no-model" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("runtime_config_error");
    expect(error.message).toContain('model slot "fast"');
    expect(error.result!.events.filter((event) => event.type === "StepAttemptStarted").length).toBe(1);
  });
});

describe("outputs as artifacts", () => {
  it("stores an output over 256,000 characters as an artifact committed before StepCompleted", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    const big = "x".repeat(300_000);
    const steps = [{ id: "big", uses: "tool.call", with: { tool: "echo", args: { big: "{{ input.big }}" } }, output: { mode: "object", schema: { type: "object" } } }] as LwirStep[];
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["echo"] })), input: { big }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-big" });
    const types = result.events.map((event) => event.type);
    expect(types.indexOf("ArtifactCreated")).toBeLessThan(types.indexOf("StepCompleted"));
    const completed = result.events.find((event) => event.type === "StepCompleted")!.payload as Record<string, unknown>;
    expect(Object.hasOwn(completed, "output")).toBe(false);
    expect(String(completed.outputRef)).toMatch(/^art_/);
    expect(result.artifacts).toHaveLength(1);
    expect(await world.readArtifactJson(String(completed.outputRef))).toEqual({ big });
    expect(result.output).toEqual({ big });
  });
});

describe("code.run and the fixer", () => {
  it("runs a fix_step session when code.run fails and records fixedSource in events, not in the LWIR", async () => {
    const world = memoryWorld();
    const source = "// FAIL\n// OUTPUT: {\"total\":42}";
    const steps = [
      {
        id: "compute",
        uses: "code.run",
        with: { entrypoint: "main.js", files: codeFiles(source), sandbox: { network: "deny" } },
        output: { mode: "object", schema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } },
        onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Fix the code." } },
      },
    ] as LwirStep[];
    const lwir = lwirDocument({ steps, models: ["fixer"] });
    const workflowVersion = versionOf(lwir);
    const harness = createFakeWorkerHarness();
    const fixerModel = textModel({ provider: "acme", modelId: "fixer-1", text: "", input: 1, output: 1 });
    const result = await executeWorkflowVersion({ world, workflowVersion, input: {}, models: { fixer: fixerModel.model }, workerHarness: harness, runId: "run-fix" });
    expect(result.output).toEqual({ total: 42 });
    expect(harness.calls).toEqual({ executeStep: 1, fixStep: 1 });
    const completed = result.events.find((event) => event.type === "StepCompleted")!.payload as { fixedSource?: string };
    expect(completed.fixedSource).toBe("// OUTPUT: {\"total\":42}");
    const sessions = result.events.filter((event) => event.type === "harness.session.started").map((event) => (event.payload as { role: string }).role);
    expect(sessions).toEqual(["worker.code-run", "fixer"]);
    expect((workflowVersion.lwir.steps[0] as { with: { files: Record<string, { content: string }> } }).with.files["main.js"]!.content).toBe(source);
  });

  it("without a fixer, a failing code.run fails the run with step_failed", async () => {
    const world = memoryWorld();
    const steps = [{ id: "compute", uses: "code.run", with: { entrypoint: "main.js", files: codeFiles("// FAIL"), sandbox: { network: "deny" } }, output: { mode: "json" } }] as LwirStep[];
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps })), input: {}, workerHarness: createFakeWorkerHarness(), runId: "run-nofix" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_failed");
    expect(error.failedStepPath).toBe("compute");
  });
});
