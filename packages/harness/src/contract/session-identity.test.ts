import { describe, expect, it } from "vitest";
import type { HarnessTask } from "./harness.js";
import { HarnessContextError } from "./harness-context-error.js";
import { requireManifest, sessionKeyFor, stepPathOf } from "./session-identity.js";

const step = { id: "fetch", uses: "tool.call", with: { tool: "lookup" }, output: { mode: "text" } } as const;
const execute: HarnessTask = { kind: "execute_step", step, stepInput: {}, stepContext: { stepPath: "loop.visit[1]", visitIndex: 1 } };
const fix: HarnessTask = { kind: "fix_step", step, stepInput: {}, originalAttemptError: { name: "Error", message: "boom" }, priorFixAttempts: 0 };

describe("session identity of a task", () => {
  it("takes the context's session key when given, else the default of the task kind", () => {
    expect(sessionKeyFor(execute, { sessionKey: "step:loop.visit[1]@attempt_2" })).toBe("step:loop.visit[1]@attempt_2");
    expect(sessionKeyFor(execute, {})).toBe("step:loop.visit[1]@attempt_1");
    expect(sessionKeyFor(fix, {})).toBe("fix:fetch@attempt_1");
    expect(sessionKeyFor(fix, { stepPath: "group[0].fetch" })).toBe("fix:group[0].fetch@attempt_1");
    expect(sessionKeyFor({ kind: "orchestrate", available: [], input: null }, {})).toBe("orchestrate");
  });

  it("finds the step path in the task first, then the context, then the step id", () => {
    expect(stepPathOf(execute, { stepPath: "ignored" })).toBe("loop.visit[1]");
    expect(stepPathOf(fix, { stepPath: "group[0].fetch" })).toBe("group[0].fetch");
    expect(stepPathOf(fix, {})).toBe("fetch");
  });

  it("returns the manifest, or fails naming the manifest the task needs", () => {
    const manifest = { role: "worker.tool-call" } as never;
    expect(requireManifest(execute, { manifest })).toBe(manifest);
    const error = (() => {
      try {
        return requireManifest(fix, {});
      } catch (caught) {
        return caught;
      }
    })();
    expect(HarnessContextError.is(error, "harness.context_incomplete")).toBe(true);
    expect((error as Error).message).toMatch(/fix_step task: the context has no manifest\. Pass the session's FixerManifest as ctx\.manifest/);
  });
});
