import { createToolRegistry, openHarnessSession, type Harness, type HarnessContext } from "@little-stack/harness";
import { memoryWorld, type World } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recordingWorld } from "../__fixtures__/recording-world.js";
import { codeFiles, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import type { RuntimeHarnessContext } from "./harness-dispatch.js";

/** tool.call → code.run (calling the tool from code) → decision → ai.generate, with the default harness. */
async function runEveryStepKind(world: World) {
  const toolCalls: unknown[] = [];
  const tools = createToolRegistry({
    lookup: tool({
      description: "Looks up a price.",
      inputSchema: z.object({ sku: z.string() }),
      execute: async ({ sku }) => {
        toolCalls.push(sku);
        return { sku, price: sku.length * 10 };
      },
    }),
  });
  const model = new MockLanguageModelV3({
    provider: "acme",
    modelId: "writer-1",
    doGenerate: async () => ({
      content: [{ type: "text", text: "Total is fine." }],
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 4, text: 4, reasoning: 0 } },
      warnings: [],
    }),
  });
  const code = [
    "export async function run({ input, tools }) {",
    "  const priced = await tools.lookup({ sku: input.sku + '-x' });",
    "  return { total: input.price + priced.price };",
    "}",
  ].join("\n");
  const object = { mode: "object", schema: { type: "object" } } as const;
  const steps = [
    { id: "price", uses: "tool.call", with: { tool: "lookup", args: { sku: "{{ input.sku }}" } }, output: object },
    {
      id: "sum",
      uses: "code.run",
      needs: ["price"],
      input: "{{ steps.price.output }}",
      with: { entrypoint: "main.js", files: codeFiles(code), sandbox: { network: "deny" } },
      output: { mode: "object", schema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } },
    },
    { id: "cheap", uses: "decision", needs: ["sum"], with: { cases: [{ when: "{{ steps.sum.output.total < 100 }}", to: "note" }], default: "end" } },
    { id: "note", uses: "ai.generate", needs: ["sum"], with: { model: "writer", prompt: "Comment on {{ steps.sum.output.total }}" }, output: { mode: "text" } },
  ] as LwirStep[];
  const lwir = lwirDocument({ steps, tools: ["lookup"], models: ["writer"] });
  const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { sku: "abc" }, tools, models: { writer: model }, runId: "run-default-harness" });
  return { result, toolCalls };
}

describe("with the default workflowHarness (no workerHarness given)", () => {
  it("runs tool.call, decision, code.run in the sandbox (a tool call from code recorded with caller code) and ai.generate", async () => {
    const world = memoryWorld();
    const { result, toolCalls } = await runEveryStepKind(world);
    expect(result.output).toBe("Total is fine.");
    expect(toolCalls).toEqual(["abc", "abc-x"]);
    const state = await replayRun(world, "run-default-harness");
    expect(state.steps.sum?.output).toEqual({ total: 80 });
    expect(state.steps.cheap?.output).toEqual({ chosen: "note" });
    const codeCall = result.events.find((event) => event.type === "harness.tool_call.started" && (event.payload as { caller: string; toolName: string }).toolName === "lookup" && (event.payload as { args: { sku: string } }).args.sku === "abc-x");
    expect((codeCall?.payload as { caller?: string }).caller).toBe("code");
    const started = result.events.find((event) => event.type === "harness.session.started")!.payload as { manifest: { harnessId: string; stepPath: string } };
    expect(started.manifest).toMatchObject({ harnessId: "workflowHarness@0.2.0", stepPath: "price" });
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 4, unpricedCalls: 1, costUsd: null });
  }, 30_000);

  it("commits a tool.call or decision step in one transaction; model responses and code.run tool results commit at once", async () => {
    const { world, transactions, durable } = recordingWorld(memoryWorld());
    await runEveryStepKind(world);
    // The run's start needs no sync of its own: the first result boundary's makes it durable.
    expect(transactions[0]!.map((event) => event.type)).toEqual(["WorkflowVersionRegistered", "RunStarted"]);
    expect(durable[0]).toBe(false);
    // Every other transaction carries a result boundary, durable when its append returns.
    expect(durable.slice(1).every((each) => each)).toBe(true);
    const completing = (stepPath: string) => transactions.filter((batch) => batch.some((event) => event.type === "StepCompleted" && event.stepPath === stepPath));
    // tool.call: the whole step, its tool call included, is one transaction.
    const [price] = completing("price");
    expect(price?.map((event) => event.type)).toEqual([
      "StepScheduled",
      "StepAttemptStarted",
      "harness.session.started",
      // No tool_call.started: committed with its succeeded, it would repeat a subset of it.
      "harness.tool_call.succeeded",
      "harness.session.completed",
      "StepCompleted",
    ]);
    const [cheap] = completing("cheap");
    expect(cheap?.map((event) => event.type)).toEqual(expect.arrayContaining(["harness.execute_step.succeeded", "StepCompleted"]));
    // ai.generate: the model response is committed as soon as the model answered, before StepCompleted.
    const responded = transactions.findIndex((batch) => batch.some((event) => event.type === "harness.model.responded" && event.stepPath === "note"));
    expect(responded).toBeGreaterThanOrEqual(0);
    expect(transactions.indexOf(completing("note")[0]!)).toBeGreaterThan(responded);
    // code.run: its tool call's result is its own boundary (the only one not riding with a StepCompleted).
    const alone = transactions.filter((batch) => batch.some((event) => event.type === "harness.tool_call.succeeded") && !batch.some((event) => event.type === "StepCompleted"));
    expect(alone).toHaveLength(1);
    expect(transactions.indexOf(alone[0]!)).toBeLessThan(transactions.indexOf(completing("sum")[0]!));
  }, 30_000);
});

describe("a tool.call step's AbortSignal through the default harness", () => {
  it("reaches the tool, which reads it only while it runs, and aborts when the run times out", async () => {
    const seen: { aborted: boolean; heard: boolean }[] = [];
    const tools = createToolRegistry({
      wait: tool({
        description: "Waits until aborted.",
        inputSchema: z.object({}).passthrough(),
        execute: (_input, options) =>
          new Promise((_resolve, reject) => {
            const record = { aborted: options.abortSignal?.aborted ?? true, heard: false };
            seen.push(record);
            options.abortSignal?.addEventListener("abort", () => {
              record.heard = true;
              reject(new Error("aborted"));
            });
          }),
      }),
    });
    const steps = [{ id: "wait", uses: "tool.call", with: { tool: "wait" }, output: { mode: "json" } }] as LwirStep[];
    const world = memoryWorld();
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["wait"] })), input: {}, tools, timeout: "50ms", runId: "run-tool-signal" }).catch((caught: unknown) => caught)) as { causeCode?: string };
    expect(error.causeCode).toBe("timeout");
    expect(seen).toEqual([{ aborted: false, heard: true }]);
    // The call never settled: its announcement is logged (not dropped as it is when its result
    // follows), so the log still says which call was in flight, before the session's end.
    const types = (await world.listEvents("run-tool-signal")).map((event) => event.type);
    const tail = types.slice(types.indexOf("harness.session.started"));
    expect(tail).toEqual(["harness.session.started", "harness.tool_call.started", "harness.session.failed", "StepFailed", "RunFailed"]);
  });
});

describe("a direct step's call announcement, when nothing settles it", () => {
  /** A worker harness that records a tool call's start by hand, never its result, and completes the step. */
  const announcingHarness = (options: { readonly endSession: boolean }): Harness & { id: string } => ({
    id: "announces-only",
    async run(_task, baseCtx: HarnessContext) {
      const ctx = baseCtx as RuntimeHarnessContext;
      const session = await openHarnessSession({ recorder: ctx.recorder!, scope: ctx.scope, sessionKey: ctx.sessionKey, task: { kind: "execute_step" }, manifest: ctx.manifest, stepPath: ctx.stepPath });
      await ctx.recorder!.append([{ type: "harness.tool_call.started", payload: { callId: "tcall_00000000000000aa", caller: "code", toolName: "lookup", args: { sku: "x" }, callIndex: 0, stepPath: ctx.stepPath } }]);
      if (options.endSession) await session.complete({ output: { done: true } });
      return { kind: "execute_step", output: { done: true }, artifactRefs: [] };
    },
  });

  async function loggedTail(runId: string, endSession: boolean) {
    const steps = [{ id: "fetch", uses: "tool.call", with: { tool: "lookup", args: { sku: "x" } }, output: { mode: "json" } }] as LwirStep[];
    const world = memoryWorld();
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["lookup"] })), input: {}, tools: createToolRegistry({}), workerHarness: announcingHarness({ endSession }), runId });
    expect(result.status).toBe("completed");
    const types = (await world.listEvents(runId)).map((event) => event.type);
    expect((await replayRun(world, runId)).harness).toMatchObject({ toolCalls: 1, codeToolCalls: 1 });
    return types.slice(types.indexOf("harness.session.started"));
  }

  it("is logged before the session's next event when that event is not the call's result", async () => {
    expect(await loggedTail("run-unsettled-ended", true)).toEqual(["harness.session.started", "harness.tool_call.started", "harness.session.completed", "StepCompleted", "RunCompleted"]);
  });

  it("is logged before StepCompleted when the harness returns without appending anything after it", async () => {
    expect(await loggedTail("run-unsettled-returned", false)).toEqual(["harness.session.started", "harness.tool_call.started", "StepCompleted", "RunCompleted"]);
  });
});
