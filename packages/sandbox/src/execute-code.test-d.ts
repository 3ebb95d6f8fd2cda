import { describe, expectTypeOf, it } from "vitest";
import type { CodeRunFile, ExecuteCodeOptions, ExecuteCodeResult, SandboxLimits } from "./index.js";
import { defaultSandboxLimits, executeCode, SandboxError, SandboxTimeoutError } from "./index.js";

// The contract the harness wires against: names and shapes must not drift.
describe("public API shape", () => {
  it("keeps the executeCode contract", () => {
    expectTypeOf(executeCode).parameter(0).toEqualTypeOf<ExecuteCodeOptions>();
    expectTypeOf(executeCode).returns.toEqualTypeOf<Promise<ExecuteCodeResult>>();
    expectTypeOf<ExecuteCodeOptions["files"]>().toEqualTypeOf<Readonly<Record<string, CodeRunFile>>>();
    expectTypeOf<CodeRunFile>().toEqualTypeOf<{ readonly content: string; readonly sha256: string }>();
    expectTypeOf<ExecuteCodeOptions["callTool"]>().toEqualTypeOf<
      (call: { readonly toolName: string; readonly args: unknown; readonly callIndex: number }) => Promise<unknown>
    >();
    expectTypeOf<ExecuteCodeOptions["limits"]>().toEqualTypeOf<Partial<SandboxLimits> | undefined>();
    expectTypeOf<ExecuteCodeResult["logs"]>().toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf(defaultSandboxLimits).toEqualTypeOf<SandboxLimits>();
    expectTypeOf<Pick<SandboxLimits, "timeoutMs" | "memoryBytes" | "maxOutputBytes" | "maxToolCalls">>().toEqualTypeOf<{
      timeoutMs: number;
      memoryBytes: number;
      maxOutputBytes: number;
      maxToolCalls: number;
    }>();
    expectTypeOf<SandboxTimeoutError>().toMatchTypeOf<SandboxError>();
    expectTypeOf<SandboxError["code"]>().toEqualTypeOf<string>();
  });
});
