import { jsonSchema, Output } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { fakeModel } from "./__fixtures__/fake-models.js";
import { defineWorkflow } from "./define-workflow.js";
import type { FromJsonSchema } from "./infer-schema.js";
import type { WorkflowInput, WorkflowOutput } from "./workflow-definition.js";

const planner = { model: fakeModel("gpt-5") };

describe("defineWorkflow type inference", () => {
  it("infers input and output from Zod schemas", () => {
    const workflow = defineWorkflow({
      id: "w",
      input: z.object({ ticketId: z.string(), priority: z.number().optional() }),
      output: z.object({ summary: z.string(), severity: z.enum(["low", "high"]) }),
      planner,
    });
    expectTypeOf<WorkflowInput<typeof workflow>>().toEqualTypeOf<{ ticketId: string; priority?: number | undefined }>();
    expectTypeOf<WorkflowOutput<typeof workflow>>().toEqualTypeOf<{ summary: string; severity: "low" | "high" }>();
  });

  it("infers input and output from inline JSON Schema literals", () => {
    const workflow = defineWorkflow({
      id: "w",
      input: {
        type: "object",
        required: ["ids"],
        properties: { ids: { type: "array", items: { type: "string" } }, limit: { type: "integer" } },
      },
      output: { type: "object", required: ["ok"], properties: { ok: { type: "boolean" }, kind: { enum: ["a", "b"] } } },
      planner,
    });
    expectTypeOf<WorkflowInput<typeof workflow>>().toEqualTypeOf<{ ids: string[]; limit?: number }>();
    expectTypeOf<WorkflowOutput<typeof workflow>>().toEqualTypeOf<{ ok: boolean; kind?: "a" | "b" }>();
  });

  it("infers the output of each output mode", () => {
    expectTypeOf<WorkflowOutput<ReturnType<typeof defineWorkflow<undefined, { kind: "text" }>>>>().toEqualTypeOf<string>();
    const choice = defineWorkflow({ id: "w", planner, output: { kind: "choice", values: ["yes", "no"] } });
    expectTypeOf<WorkflowOutput<typeof choice>>().toEqualTypeOf<"yes" | "no">();
    const array = defineWorkflow({ id: "w", planner, output: { kind: "array", element: z.object({ n: z.number() }) } });
    expectTypeOf<WorkflowOutput<typeof array>>().toEqualTypeOf<{ n: number }[]>();
    const aiSdk = defineWorkflow({ id: "w", planner, output: { kind: "object", schema: jsonSchema<{ score: number }>({ type: "object" }) } });
    expectTypeOf<WorkflowOutput<typeof aiSdk>>().toEqualTypeOf<{ score: number }>();
  });

  it("infers the output of the AI SDK's Output specs", () => {
    const object = defineWorkflow({ id: "w", planner, output: Output.object({ schema: z.object({ summary: z.string() }) }) });
    expectTypeOf<WorkflowOutput<typeof object>>().toEqualTypeOf<{ summary: string }>();
    const array = defineWorkflow({ id: "w", planner, output: Output.array({ element: z.object({ n: z.number() }) }) });
    expectTypeOf<WorkflowOutput<typeof array>>().toEqualTypeOf<{ n: number }[]>();
    const choice = defineWorkflow({ id: "w", planner, output: Output.choice({ options: ["yes", "no"] as const }) });
    expectTypeOf<WorkflowOutput<typeof choice>>().toEqualTypeOf<"yes" | "no">();
    const text = defineWorkflow({ id: "w", planner, output: Output.text() });
    expectTypeOf<WorkflowOutput<typeof text>>().toEqualTypeOf<string>();
  });

  it("leaves both unknown when no schema is given", () => {
    const workflow = defineWorkflow({ id: "w", planner });
    expectTypeOf<WorkflowInput<typeof workflow>>().toEqualTypeOf<unknown>();
    expectTypeOf<WorkflowOutput<typeof workflow>>().toEqualTypeOf<unknown>();
  });

  it("maps anyOf, const and nullable type arrays", () => {
    expectTypeOf<FromJsonSchema<{ anyOf: [{ type: "string" }, { const: 3 }] }>>().toEqualTypeOf<string | 3>();
    expectTypeOf<FromJsonSchema<{ type: readonly ["string", "null"] }>>().toEqualTypeOf<string | null>();
    expectTypeOf<FromJsonSchema<true>>().toEqualTypeOf<unknown>();
  });
});
