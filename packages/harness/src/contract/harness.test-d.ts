import { describe, expectTypeOf, it } from "vitest";
import type { HarnessEventRecorder } from "../events/harness-event-recorder.js";
import type { Harness, HarnessContext, HarnessResult, HarnessTask } from "./harness.js";
import type { HarnessManifest } from "./manifests.js";
import { requireManifest, sessionKeyFor } from "./session-identity.js";

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

  it("types what the runtime hands a harness: an id on the harness, the manifest, session key and recorder on the context", () => {
    const durable: Harness = {
      id: "durable-custom@1.0.0",
      async run(task, ctx) {
        expectTypeOf(ctx.manifest).toEqualTypeOf<HarnessManifest | undefined>();
        expectTypeOf(ctx.sessionKey).toEqualTypeOf<string | undefined>();
        expectTypeOf(ctx.recorder).toEqualTypeOf<HarnessEventRecorder | undefined>();
        expectTypeOf(requireManifest(task, ctx)).toEqualTypeOf<HarnessManifest>();
        expectTypeOf(sessionKeyFor(task, ctx)).toEqualTypeOf<string>();
        return { kind: "delegate_to_default" };
      },
    };
    expectTypeOf(durable.id).toEqualTypeOf<string | undefined>();
  });
});
