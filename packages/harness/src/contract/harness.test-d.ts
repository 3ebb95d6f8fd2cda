import { describe, expectTypeOf, it } from "vitest";
import type { Harness, HarnessContext, HarnessResult, HarnessTask } from "./harness.js";

describe("the Harness contract", () => {
  it("lets a custom harness be written against the types alone (seed 003's delegating harness)", () => {
    const customHarness: Harness = {
      async run(task, ctx) {
        if (task.kind === "execute_step") {
          if (task.step.uses === "code.run") return { kind: "delegate_to_default" };
          return { kind: "execute_step", output: task.stepInput, artifactRefs: [] };
        }
        if (task.kind === "plan") return { kind: "plan", lwir: { metadata: { name: task.workflowSnapshot.id } } };
        if (task.kind === "fix_step") {
          return { kind: "fix_step", output: null, fixedSource: `// ${task.originalAttemptError.message}`, attempts: task.priorFixAttempts + 1 };
        }
        expectTypeOf(task.kind).toEqualTypeOf<"orchestrate">();
        expectTypeOf(ctx.scope.role).toEqualTypeOf<"planner" | "orchestrator" | "worker.ai-generate" | "worker.code-run" | "worker.tool-call" | "fixer">();
        return { kind: "orchestrate", output: task.available.map((snapshot) => snapshot.id) };
      },
    };
    expectTypeOf(customHarness.run).parameters.toEqualTypeOf<[HarnessTask, HarnessContext]>();
    expectTypeOf(customHarness.run).returns.resolves.toEqualTypeOf<HarnessResult>();
  });

  it("rejects a result of the wrong shape", () => {
    // @ts-expect-error fix_step results carry fixedSource and attempts
    const bad: HarnessResult = { kind: "fix_step", output: null };
    expectTypeOf(bad).not.toBeNever();
  });
});
