import { createToolRegistry } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codeFiles, lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

describe("with the default workflowHarness (no workerHarness given)", () => {
  it("runs tool.call, decision, code.run in the sandbox (a tool call from code recorded with caller code) and ai.generate", async () => {
    const world = memoryWorld();
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
    expect(result.output).toBe("Total is fine.");
    expect(toolCalls).toEqual(["abc", "abc-x"]);
    const state = await replayRun(world, "run-default-harness");
    expect(state.steps.sum?.output).toEqual({ total: 80 });
    expect(state.steps.cheap?.output).toEqual({ chosen: "note" });
    const codeCall = result.events.find((event) => event.type === "harness.tool_call.started" && (event.payload as { caller: string; toolName: string }).toolName === "lookup" && (event.payload as { args: { sku: string } }).args.sku === "abc-x");
    expect((codeCall?.payload as { caller?: string }).caller).toBe("code");
    const started = result.events.find((event) => event.type === "harness.session.started")!.payload as { manifest: { harnessId: string; stepPath: string } };
    expect(started.manifest).toMatchObject({ harnessId: "workflowHarness@0.1.0", stepPath: "price" });
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 4, unpricedCalls: 1, costUsd: null });
  }, 30_000);
});
