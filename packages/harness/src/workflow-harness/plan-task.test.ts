import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedV3Model, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { PlanTask } from "../contract/harness.js";
import { eventTypes, payloadsOf, testContext } from "./__fixtures__/test-context.js";
import { PlanNotSubmittedError, PlanRevisionsExhaustedError } from "./agent-task-errors.js";
import { createWorkflowHarness, workflowHarness } from "./workflow-harness.js";
import { WorkflowHarnessOptionError } from "./workflow-harness-errors.js";

const validLwir = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "demo.echo" },
  input: { schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  output: { schema: { type: "string" } },
  permissions: { models: ["fast"], tools: [] },
  steps: [{ id: "say", uses: "ai.generate", needs: [], with: { model: "fast", prompt: "Repeat {{ input.text }}" }, output: { mode: "text" } }],
};
const invalidLwir = { ...validLwir, steps: [{ ...validLwir.steps[0], with: { model: "slow", prompt: "Repeat" } }] };

const task: PlanTask = {
  kind: "plan",
  workflowSnapshot: {
    id: "demo.echo",
    description: "Echo text.",
    inputSchemaHash: "sha256:1",
    outputSchemaHash: "sha256:2",
    modelSlots: [{ id: "fast", providerId: "fixture", modelId: "scripted-1", description: "Fast." }],
    plannerConfig: { modelSlotId: "planner", harnessId: "workflowHarness@0.2.0", systemHash: "sha256:3", skillsHash: "sha256:4" },
    workerConfig: { harnessId: "workflowHarness@0.2.0", skillsHash: "sha256:4" },
    globalTools: ["archive"],
    memoryConfig: { workflow: "rw", org: "ro", attached: [] },
  },
  input: { text: "hello" },
};

function submit(lwir: unknown): FixtureTurn {
  return { toolCalls: [{ toolName: "submit_workflow", args: { lwir } }] };
}

function archiveTool(calls: unknown[]) {
  return tool({
    description: "Archive a document.",
    inputSchema: z.object({ id: z.string() }),
    execute: async (input) => {
      calls.push(input);
      return { ok: true };
    },
  });
}

describe("plan", () => {
  it("returns findings for an invalid LWIR to the model, and ends with the valid one", async () => {
    const model = scriptedV3Model([submit(invalidLwir), submit(validLwir)]);
    const archived: unknown[] = [];
    const { ctx, sink } = testContext({ role: "planner", model, tools: { archive: archiveTool(archived) }, extra: { system: "You design echo workflows." } });
    const result = await workflowHarness.run(task, ctx);
    expect(result).toEqual({ kind: "plan", lwir: validLwir });
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("model.disallowed");
    // Tool descriptors are visible, not callable.
    const system = (model.calls[0]!.prompt[0] as { content: string }).content;
    expect(system.indexOf("You design echo workflows.")).toBe(0);
    expect(system).toContain("- archive: Archive a document. Input: {id: string}.");
    expect((model.calls[0]!.tools ?? []).map((offered) => offered.name)).toEqual(["check_workflow", "test_code", "submit_workflow"]);
    expect(archived).toEqual([]);
    expect(JSON.stringify(model.calls[0]!.prompt[1])).toContain('Design the workflow \\"demo.echo\\"');

    expect(eventTypes(sink.events)).toEqual([
      "session.started",
      "model.called",
      "model.responded",
      "tool_call.started",
      "tool_call.succeeded",
      "model.called",
      "model.responded",
      "tool_call.started",
      "tool_call.succeeded",
      "session.completed",
    ]);
    const results = payloadsOf(sink.events, "harness.tool_call.succeeded").map((payload) => payload.result as { accepted: boolean });
    expect(results.map((entry) => entry.accepted)).toEqual([false, true]);
    expect(payloadsOf(sink.events, "harness.session.completed")[0]!.output).toEqual(validLwir);
    expect(payloadsOf(sink.events, "harness.session.started")[0]).toMatchObject({ role: "planner", task: { kind: "plan" } });
  });

  it("runs the compiler's extra validation after validateLwir and returns its findings too", async () => {
    // The second submission comes as a JSON string, as some models send it.
    const model = scriptedV3Model([submit(validLwir), submit(JSON.stringify({ ...validLwir, metadata: { name: "demo.renamed" } }))]);
    const seen: unknown[] = [];
    const { ctx } = testContext({
      role: "planner",
      model,
      extra: {
        planning: {
          validateWorkflow: (lwir) => {
            seen.push(lwir);
            const name = (lwir as { metadata: { name: string } }).metadata.name;
            return name === "demo.renamed" ? [] : [{ severity: "error", code: "binding.workflow_name_mismatch", path: "$.metadata.name", message: "Use the workflow id." }];
          },
        },
      },
    });
    const result = await workflowHarness.run(task, ctx);
    expect(result).toMatchObject({ kind: "plan", lwir: { metadata: { name: "demo.renamed" } } });
    expect(seen).toHaveLength(2);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("binding.workflow_name_mismatch");
  });

  it("fails with every revision's findings when maxWorkflowRevisions is used up", async () => {
    const model = scriptedV3Model([submit(invalidLwir), submit({ kind: "Workflow" }), submit(validLwir)]);
    const { ctx, sink } = testContext({ role: "planner", model, extra: { planning: { maxWorkflowRevisions: 2 } } });
    const error = await workflowHarness.run(task, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlanRevisionsExhaustedError);
    const revisions = (error as PlanRevisionsExhaustedError).revisions;
    expect(revisions.map((revision) => revision.revision)).toEqual([1, 2]);
    expect(revisions[0]!.findings.map((finding) => finding.code)).toEqual(["model.disallowed"]);
    expect(revisions[1]!.findings.length).toBeGreaterThan(1);
    expect(model.calls).toHaveLength(2);
    expect(eventTypes(sink.events).at(-1)).toBe("session.failed");
  });

  it("answers a text-only turn with a reminder to use the tools, then accepts the submission", async () => {
    const model = scriptedV3Model([{ text: "I think the workflow should echo." }, submit(validLwir)]);
    const { ctx, sink } = testContext({ role: "planner", model });
    expect(await workflowHarness.run(task, ctx)).toEqual({ kind: "plan", lwir: validLwir });
    expect(model.calls).toHaveLength(2);
    const second = JSON.stringify(model.calls[1]!.prompt);
    expect(second).toContain("I think the workflow should echo.");
    expect(second).toContain("Your turn ended without a tool call");
    expect(second).toContain("5 submission(s) left");
    expect(payloadsOf(sink.events, "harness.model.called").map((payload) => payload.turn)).toEqual([1, 2]);
  });

  it("fails with a named error when the model keeps answering in text after three reminders", async () => {
    const model = scriptedV3Model([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }, submit(validLwir)]);
    const { ctx } = testContext({ role: "planner", model });
    await expect(workflowHarness.run(task, ctx)).rejects.toBeInstanceOf(PlanNotSubmittedError);
    expect(model.calls).toHaveLength(4);
  });

  it("refuses out-of-range revision caps with a named error", async () => {
    const { ctx } = testContext({ role: "planner", model: scriptedV3Model([]), extra: { planning: { maxWorkflowRevisions: 0 } } });
    await expect(workflowHarness.run(task, ctx)).rejects.toBeInstanceOf(WorkflowHarnessOptionError);
    expect(() => createWorkflowHarness({ maxAgentSteps: 1.5 })).toThrow(/maxAgentSteps must be an integer >= 1, got 1.5/);
  });
});
