import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { defineWorkflow, runOrchestration, runWorkflow, workflowTool, type OrchestrationResult, type RunResult, type World } from "./index.js";

declare const world: World;
declare const plannerModel: Parameters<typeof defineWorkflow>[0]["planner"] extends infer P ? (P extends { model?: infer M } ? Exclude<M, undefined> : never) : never;

const workflow = defineWorkflow({
  id: "candidate.review",
  input: z.object({ requirement: z.string(), resumeUrl: z.string() }),
  output: z.object({ verdict: z.enum(["hire", "no_hire"]), score: z.number() }),
  planner: { model: plannerModel },
});

type Output = { verdict: "hire" | "no_hire"; score: number };

test("runWorkflow infers input and output from the definition's schemas", () => {
  expectTypeOf(runWorkflow(workflow, { requirement: "x", resumeUrl: "y" }, { world })).resolves.toEqualTypeOf<RunResult<Output>>();
  // @ts-expect-error resumeUrl is missing
  void runWorkflow(workflow, { requirement: "x" }, { world });
  // @ts-expect-error world is required
  void runWorkflow(workflow, { requirement: "x", resumeUrl: "y" }, {});
});

test("workflowTool is typed from the same schemas", () => {
  const review = workflowTool(workflow, { world });
  expectTypeOf<Parameters<NonNullable<typeof review.execute>>[0]>().toEqualTypeOf<{ requirement: string; resumeUrl: string }>();
});

test("runOrchestration resolves to an OrchestrationResult", () => {
  expectTypeOf(runOrchestration({ workflows: [workflow], orchestrator: { model: plannerModel }, input: {}, world })).resolves.toEqualTypeOf<OrchestrationResult>();
});
