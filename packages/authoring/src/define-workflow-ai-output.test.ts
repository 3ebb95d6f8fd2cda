import { Output } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeModel } from "./__fixtures__/fake-models.js";
import { ticketOutputSchema, ticketPlan } from "./__fixtures__/ticket-plan.js";
import { workflowDefinitionReady } from "./deferred-output.js";
import { defineWorkflow } from "./define-workflow.js";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";

const planner = { model: fakeModel("gpt-5") };

describe("defineWorkflow with the AI SDK's Output specs", () => {
  it("takes Output.object once its schema resolved, and refuses a read before that by name", async () => {
    const workflow = defineWorkflow({ id: "w", planner, output: Output.object({ schema: z.object({ summary: z.string(), severity: z.enum(["low", "high"]) }) }) });
    let early: unknown;
    try {
      void workflow.outputSchema;
    } catch (error) {
      early = error;
    }
    expect(WorkflowDefinitionError.is(early) && early.code).toBe("definition.output_pending");
    expect((early as Error).message).toContain("workflowDefinitionReady");
    expect(await workflowDefinitionReady(workflow)).toBe(workflow);
    expect(workflow.output).toMatchObject({ mode: "object", schema: { type: "object", required: ["summary", "severity"] } });
    expect(workflow.outputSchema).toMatchObject({ properties: { severity: { enum: ["low", "high"] } } });
    expect(Object.isFrozen(workflow)).toBe(true);
    // Spread and JSON see the settled fields.
    expect(JSON.parse(JSON.stringify({ ...workflow, planner: undefined, models: undefined })).output.mode).toBe("object");
  });

  it("maps Output.array to array mode over its element and Output.choice to its values", async () => {
    const array = await workflowDefinitionReady(defineWorkflow({ id: "w", planner, output: Output.array({ element: z.object({ n: z.number() }) }) }));
    expect(array.output).toMatchObject({ mode: "array", schema: { type: "array", items: { type: "object", required: ["n"] } } });
    const choice = await workflowDefinitionReady(defineWorkflow({ id: "w", planner, output: Output.choice({ options: ["yes", "no"] }) }));
    expect(choice.output).toEqual({ mode: "choice", values: ["yes", "no"] });
    expect(choice.outputSchema).toEqual({ type: "string", enum: ["yes", "no"] });
  });

  it("takes Output.text() and Output.json() at once (they carry no schema)", async () => {
    const text = defineWorkflow({ id: "w", planner, output: Output.text() });
    expect(text.output).toEqual({ mode: "text" });
    expect(await workflowDefinitionReady(text)).toBe(text);
    expect(defineWorkflow({ id: "w", planner, output: Output.json() }).output).toEqual({ mode: "json" });
  });

  it("checks a resolved Output against a fixed plan's output schema", async () => {
    const same = defineWorkflow({ id: "support.summarize-ticket", model: fakeModel("gpt-4o-mini"), plan: ticketPlan(), output: Output.object({ schema: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }) }) });
    expect((await workflowDefinitionReady(same)).outputSchema).toMatchObject({ required: ticketOutputSchema.required });
    const different = defineWorkflow({ id: "support.summarize-ticket", model: fakeModel("gpt-4o-mini"), plan: ticketPlan(), output: Output.object({ schema: z.object({ summary: z.number() }) }) });
    const error = await workflowDefinitionReady(different).catch((caught: unknown) => caught);
    expect(WorkflowDefinitionError.is(error) && error.code).toBe("definition.invalid_plan");
    expect((error as WorkflowDefinitionError).field).toBe("plan.output.schema");
    // Every later read names the same mistake.
    expect(() => different.output).toThrow(/plan\.output\.schema differs/);
  });

  it("turns a schema outside the LWIR subset into definition.invalid_schema on output", async () => {
    // `pattern` is not in the subset (lwir.md §5).
    const workflow = defineWorkflow({ id: "w", planner, output: Output.object({ schema: z.object({ code: z.string().regex(/^[A-Z]{3}$/) }) }) });
    const error = await workflowDefinitionReady(workflow).catch((caught: unknown) => caught);
    expect(WorkflowDefinitionError.is(error) && error.code).toBe("definition.invalid_schema");
    expect((error as WorkflowDefinitionError).field).toBe("output");
    expect((error as Error).message).toContain("pattern");
  });
});
