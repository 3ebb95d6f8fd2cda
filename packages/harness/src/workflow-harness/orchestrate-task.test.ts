import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plannerManifest } from "../__fixtures__/manifests.js";
import { scriptedV3Model } from "../__fixtures__/scripted-v3-model.js";
import type { OrchestratorManifest } from "../contract/manifests.js";
import { eventTypes, payloadsOf, testContext } from "./__fixtures__/test-context.js";
import { workflowHarness } from "./workflow-harness.js";

const orchestratorManifest: OrchestratorManifest = {
  harnessId: plannerManifest.harnessId,
  orchestratorModelSlotId: "orchestrator",
  systemPromptHash: plannerManifest.systemPromptHash,
  skillsHash: plannerManifest.skillsHash,
  availableWorkflows: [],
  globalToolsHash: plannerManifest.globalToolsHash,
  bashCapabilitiesHash: plannerManifest.bashCapabilitiesHash,
  memoryStoreIds: [],
  maxConcurrentSubRuns: 10,
};

describe("orchestrate", () => {
  it("runs the agent loop with the tools ctx provides and returns the final answer", async () => {
    const runs: unknown[] = [];
    const runWorkflow = tool({
      description: "Run a planned workflow version.",
      inputSchema: z.object({ workflowVersionId: z.string(), input: z.unknown() }),
      execute: async (input) => {
        runs.push(input);
        return { status: "completed", outputSummary: "2 candidates" };
      },
    });
    const model = scriptedV3Model([
      {
        toolCalls: [
          { toolName: "run_workflow", args: { workflowVersionId: "wfver_1", input: { jobId: "a" } } },
          { toolName: "run_workflow", args: { workflowVersionId: "wfver_1", input: { jobId: "b" } } },
        ],
      },
      { text: "Both jobs reviewed." },
    ]);
    const { ctx, sink } = testContext({ role: "orchestrator", model, manifest: orchestratorManifest, tools: { run_workflow: runWorkflow } });
    const result = await workflowHarness.run({ kind: "orchestrate", available: [], input: { jobs: ["a", "b"] } }, ctx);
    expect(result).toEqual({ kind: "orchestrate", output: "Both jobs reviewed." });
    expect(runs).toHaveLength(2);
    expect((model.calls[0]!.prompt[0] as { content: string }).content).toContain("- run_workflow: Run a planned workflow version.");
    expect(payloadsOf(sink.events, "harness.tool_call.started").map((payload) => [payload.caller, payload.turn])).toEqual([
      ["model", 1],
      ["model", 1],
    ]);
    expect(eventTypes(sink.events).at(-1)).toBe("session.completed");
  });
});
