import { createToolRegistry, createMemoryHarnessEventSink, type HarnessContext } from "@little-stack/harness";
import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeModel } from "./__fixtures__/fake-models.js";
import { ticketInputSchema, ticketOutputSchema, ticketPlan } from "./__fixtures__/ticket-plan.js";
import { defineWorkflow, isWorkflowDefinition } from "./define-workflow.js";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";
import { fixedPlanHarnessId } from "./fixed-plan-harness.js";
import { model } from "./model.js";

const planner = { model: fakeModel("gpt-5"), system: "You design ticket workflows." };

function definitionError(run: () => unknown): WorkflowDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    return error as WorkflowDefinitionError;
  }
  throw new Error("expected a WorkflowDefinitionError");
}

describe("defineWorkflow", () => {
  it("normalizes Zod input and output into JSON Schema and an object output mode", () => {
    const workflow = defineWorkflow({
      id: "support.summarize-ticket",
      description: "Summarize a ticket.",
      input: z.object({ ticketId: z.string(), transcript: z.string() }),
      output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
      models: [model(fakeModel("gpt-5"), { description: "Strong." }), model(fakeModel("gpt-4o-mini"), { description: "Fast." })],
      planner,
    });
    expect(isWorkflowDefinition(workflow)).toBe(true);
    expect(Object.isFrozen(workflow)).toBe(true);
    expect(workflow.inputSchema).toMatchObject({ type: "object", required: ["ticketId", "transcript"], properties: { ticketId: { type: "string" } } });
    expect(workflow.output.mode).toBe("object");
    expect(workflow.outputSchema).toMatchObject({ properties: { severity: { enum: ["low", "medium", "high"] } } });
    expect(workflow.models.map((slot) => [slot.id, slot.description])).toEqual([["gpt-5", "Strong."], ["gpt-4o-mini", "Fast."]]);
    // The planner's own slot is private: it does not join (or collide with) the execution slots.
    expect(workflow.planner.modelSlotId).toBe("gpt-5");
    expect(workflow.planner).toMatchObject({ system: "You design ticket workflows.", maxWorkflowRevisions: 5, harnessId: "workflowHarness@0.2.0" });
    expect(workflow.memory).toEqual({ workflow: "rw", org: "ro", attach: [] });
    expect(workflow.globalTools).toEqual([]);
  });

  it("accepts JSON Schema input and every output mode, deriving the LWIR output schema", () => {
    const base = { id: "w", input: ticketInputSchema, planner };
    expect(defineWorkflow({ ...base, output: { kind: "text" } }).outputSchema).toEqual({ type: "string" });
    expect(defineWorkflow({ ...base, output: { kind: "choice", values: ["yes", "no"] } }).outputSchema).toEqual({ type: "string", enum: ["yes", "no"] });
    expect(defineWorkflow({ ...base, output: { kind: "array", element: { type: "number" } } }).outputSchema).toEqual({ type: "array", items: { type: "number" } });
    expect(defineWorkflow({ ...base, output: { mode: "json" } }).outputSchema).toBe(true);
    const wrapped = defineWorkflow({ id: "w", planner, input: jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } } }) });
    expect(wrapped.inputSchema).toEqual({ type: "object", properties: { n: { type: "number" } } });
    const untyped = defineWorkflow({ id: "w", planner });
    expect(untyped.inputSchema).toBe(true);
    expect(untyped.output).toEqual({ mode: "json" });
  });

  it("keeps tool names sorted, and turns inline AI SDK tools into a registry", () => {
    expect(defineWorkflow({ id: "w", planner, tools: ["parsePdf", "fetchCandidates"] }).globalTools).toEqual(["fetchCandidates", "parsePdf"]);
    const inline = defineWorkflow({
      id: "w",
      planner,
      tools: { zeta: tool({ description: "z", inputSchema: z.object({}), execute: async () => 1 }), alpha: tool({ description: "a", inputSchema: z.object({}) }) },
    });
    expect(inline.globalTools).toEqual(["alpha", "zeta"]);
    expect(inline.inlineTools?.names).toEqual(["alpha", "zeta"]);
    const registry = createToolRegistry({ only: tool({ description: "o", inputSchema: z.object({}) }) });
    expect(defineWorkflow({ id: "w", planner, tools: registry }).inlineTools).toBe(registry);
  });

  it("gives a fixed plan a planner that returns the LWIR without a model call, and records its session", async () => {
    const plan = ticketPlan();
    const workflow = defineWorkflow({
      id: "support.summarize-ticket",
      input: ticketInputSchema,
      output: ticketOutputSchema,
      models: [model(fakeModel("gpt-4o-mini"))],
      plan,
    });
    expect(workflow.planner).toMatchObject({ modelSlotId: "fixed-plan", harnessId: fixedPlanHarnessId });
    expect(workflow.planner.fixedPlan).toEqual(plan);
    // A frozen copy: the caller's object stays its own, and changing it later changes nothing here.
    expect(workflow.planner.fixedPlan).not.toBe(plan);
    expect(Object.isFrozen(workflow.planner.fixedPlan)).toBe(true);
    expect(Object.isFrozen(plan)).toBe(false);
    const sink = createMemoryHarnessEventSink("run_fixed");
    const manifest = {
      harnessId: fixedPlanHarnessId,
      plannerModelSlotId: "fixed-plan",
      systemPromptHash: "sha256:" + "0".repeat(64),
      skillsHash: "sha256:" + "1".repeat(64),
      workflowDefinitionHash: "sha256:" + "2".repeat(64),
      globalToolsHash: "sha256:" + "3".repeat(64),
      bashCapabilitiesHash: "sha256:" + "4".repeat(64),
      memoryStoreIds: [],
    };
    const ctx = { scope: { runId: "run_fixed", logDir: "", role: "planner" }, durability: sink, manifest, abortSignal: new AbortController().signal } as unknown as HarnessContext;
    const result = await workflow.planner.harness.run({ kind: "plan", workflowSnapshot: {} as never, input: {} }, ctx);
    expect(result).toEqual({ kind: "plan", lwir: plan });
    expect((await sink.list()).map((event) => event.type)).toEqual(["harness.session.started", "harness.session.completed"]);
  });

  describe("definition-time mistakes name the field and the fix", () => {
    it("a planner without a model", () => {
      const error = definitionError(() => defineWorkflow({ id: "w", planner: { system: "x" } }));
      expect(error.code).toBe("definition.missing_planner_model");
      expect(error.field).toBe("planner.model");
      expect(error.message).toMatch(/defineWorkflow\("w"\): planner\.model is missing\. Give the planner its own model/);
    });

    it("a planner model given as a string", () => {
      const error = definitionError(() => defineWorkflow({ id: "w", planner: { model: "gpt-5" as never } }));
      expect(error.code).toBe("definition.invalid_model");
      expect(error.field).toBe("planner.model");
    });

    it("a tool name that cannot name a tool", () => {
      const error = definitionError(() => defineWorkflow({ id: "w", planner, tools: ["parsePdf", "bad name"] }));
      expect(error).toMatchObject({ code: "definition.unknown_tool", field: "tools[1]" });
    });

    it("a fixed plan using a tool or model the workflow does not have", () => {
      const base = { id: "support.summarize-ticket", input: ticketInputSchema, output: ticketOutputSchema, models: [model(fakeModel("gpt-4o-mini"))] };
      expect(definitionError(() => defineWorkflow({ ...base, plan: ticketPlan({ tools: ["parsePdf"] }) }))).toMatchObject({
        code: "definition.unknown_tool",
        field: "plan.permissions.tools[0]",
      });
      expect(definitionError(() => defineWorkflow({ ...base, plan: ticketPlan({ model: "gpt-9" }) }))).toMatchObject({
        code: "definition.unknown_model",
        field: "plan.permissions.models[0]",
      });
      expect(definitionError(() => defineWorkflow({ ...base, plan: ticketPlan({ name: "other" }) }))).toMatchObject({ field: "plan.metadata.name" });
      const invalid = definitionError(() => defineWorkflow({ ...base, plan: { ...ticketPlan(), steps: [] } }));
      expect(invalid.code).toBe("definition.invalid_plan");
      expect(invalid.message).toMatch(/\$\.steps/);
    });

    it("a fixed plan whose schemas differ from the definition's only by normalization is accepted; a real difference names both", () => {
      const models = [model(fakeModel("gpt-4o-mini"))];
      const zodInput = z.object({ ticketId: z.string(), transcript: z.string() });
      const zodOutput = z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) });
      const accepted = defineWorkflow({ id: "support.summarize-ticket", input: zodInput, output: zodOutput, models, plan: ticketPlan() });
      expect(accepted.inputSchema).toHaveProperty("additionalProperties", false);
      const error = definitionError(() => defineWorkflow({ id: "support.summarize-ticket", input: z.object({ ticketId: z.number() }), output: zodOutput, models, plan: ticketPlan() }));
      expect(error).toMatchObject({ code: "definition.invalid_plan", field: "plan.input.schema" });
      expect(error.message).toContain(JSON.stringify(ticketInputSchema));
      expect(error.message).toMatch(/the definition \{.*"ticketId":\{"type":"number"\}/);
      const outputError = definitionError(() => defineWorkflow({ id: "support.summarize-ticket", input: zodInput, output: { kind: "text" }, models, plan: ticketPlan() }));
      expect(outputError).toMatchObject({ code: "definition.invalid_plan", field: "plan.output.schema" });
    });

    it("a fixed plan supplies the schemas the definition leaves out", () => {
      const workflow = defineWorkflow({ id: "support.summarize-ticket", models: [model(fakeModel("gpt-4o-mini"))], plan: ticketPlan() });
      expect(workflow.inputSchema).toEqual(ticketInputSchema);
      expect(workflow.output).toEqual({ mode: "json", schema: ticketOutputSchema });
      expect(workflow.outputSchema).toEqual(ticketOutputSchema);
    });

    it("a schema outside the LWIR subset", () => {
      const error = definitionError(() => defineWorkflow({ id: "w", planner, input: z.object({ email: z.string().email() }) }));
      expect(error).toMatchObject({ code: "definition.invalid_schema", field: "input" });
      expect(error.message).toMatch(/format/);
      expect(definitionError(() => defineWorkflow({ id: "w", planner, output: { type: "string", pattern: "^a" } }))).toMatchObject({ field: "output" });
    });

    it("a live validator function", () => {
      const error = definitionError(() => defineWorkflow({ id: "w", planner, input: ((value: unknown) => typeof value === "string") as never }));
      expect(error).toMatchObject({ code: "definition.live_validator", field: "input" });
      expect(error.message).toMatch(/never executable validation code/);
      const standard = { "~standard": { version: 1, vendor: "valibot", validate: () => ({ value: 1 }) } };
      expect(definitionError(() => defineWorkflow({ id: "w", planner, output: standard as never }))).toMatchObject({ code: "definition.live_validator", field: "output" });
    });

    it("a bad id, memory option, revision cap or both plan and planner model", () => {
      expect(definitionError(() => defineWorkflow({ id: "../etc", planner }))).toMatchObject({ field: "id" });
      expect(definitionError(() => defineWorkflow({ id: "w", planner, memory: { workflow: "write" as never } }))).toMatchObject({ field: "memory.workflow" });
      expect(definitionError(() => defineWorkflow({ id: "w", planner: { ...planner, maxWorkflowRevisions: 0 } }))).toMatchObject({ field: "planner.maxWorkflowRevisions" });
      const plan = ticketPlan();
      expect(
        definitionError(() => defineWorkflow({ id: "support.summarize-ticket", input: ticketInputSchema, output: ticketOutputSchema, models: [fakeModel("gpt-4o-mini")], planner, plan })),
      ).toMatchObject({ field: "plan" });
    });
  });
});
