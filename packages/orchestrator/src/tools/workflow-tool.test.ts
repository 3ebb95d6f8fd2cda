import { localWorld, type World } from "@little-stack/local-world";
import { replayRun } from "@little-stack/runtime";
import { generateText, stepCountIs } from "ai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { candidateReviewPlan, candidateReviewSetup } from "../__fixtures__/candidate-review.js";
import { createFakeModel, createFakePlanner, toolResults } from "../__fixtures__/fake-model.js";
import { outputValue } from "../__fixtures__/fan-out.js";
import { workflowTool, workflowToolRunId } from "./workflow-tool.js";

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-workflow-tool-"));
  world = localWorld({ dataDir });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("workflowTool", () => {
  it("lets any AI SDK agent call a workflow; each call is a durable run keyed by its tool call id", async () => {
    const planner = createFakePlanner(() => candidateReviewPlan());
    const parseCalls: string[] = [];
    const { workflow, tools } = candidateReviewSetup({ planner, parseCalls });
    const review = workflowTool(workflow, { world, tools });
    expectTypeOf<Parameters<NonNullable<typeof review.execute>>[0]>().toEqualTypeOf<{ requirement: string; resumeUrl: string }>();
    const agent = createFakeModel({
      respond: (prompt) =>
        toolResults(prompt).length === 0
          ? { toolCalls: [{ toolName: "review_candidate", args: { requirement: "Rust engineer", resumeUrl: "https://example.test/linus.pdf" } }] }
          : { text: `verdict: ${(outputValue(toolResults(prompt)[0]!.output) as { verdict: string }).verdict}` },
    });
    const answer = await generateText({ model: agent, prompt: "Review Linus.", tools: { review_candidate: review }, stopWhen: stepCountIs(3) });
    expect(answer.text).toBe("verdict: hire");
    expect(parseCalls).toEqual(["https://example.test/linus.pdf"]);
    const toolCallId = answer.steps[0]!.toolCalls[0]!.toolCallId;
    const state = await replayRun(world, workflowToolRunId({ workflowId: "candidate.review", toolCallId }));
    expect(state.status).toBe("completed");
    expect(state.output).toEqual({ verdict: "hire", score: 8 });
    // The same call id again (a re-executed call) resumes that run: nothing is planned or parsed again.
    const again = await review.execute!({ requirement: "Rust engineer", resumeUrl: "https://example.test/linus.pdf" }, { toolCallId, messages: [] });
    expect(again).toEqual({ verdict: "hire", score: 8 });
    expect(planner.calls).toBe(1);
    expect(parseCalls).toHaveLength(1);
  });

  it("describes the workflow's input schema to the model and refuses a non-workflow", () => {
    const { workflow } = candidateReviewSetup({ planner: createFakePlanner(() => candidateReviewPlan()) });
    const review = workflowTool(workflow, { world });
    expect(review.description).toBe("Review candidates against a job requirement.");
    expect(JSON.stringify((review.inputSchema as { jsonSchema: unknown }).jsonSchema)).toContain("resumeUrl");
    expect(() => workflowTool({} as never, { world })).toThrow(/not a workflow definition/);
  });
});
