import { describe, expect, it } from "vitest";
import { SandboxOutOfMemoryError, SandboxTimeoutError } from "./limit-errors.js";
import { SandboxError } from "./sandbox-error.js";

describe("SandboxError", () => {
  it("carries code, details and cause, and the brand canonical's LittleWorkflowError.is() checks", () => {
    const cause = new Error("root");
    const error = new SandboxTimeoutError("too slow", { cause, details: { timeoutMs: 5 } });
    expect(error.name).toBe("SandboxTimeoutError");
    expect(error.code).toBe("sandbox.timeout");
    expect(error.details).toEqual({ timeoutMs: 5 });
    expect(error.cause).toBe(cause);
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("@little-stack/little-workflow-error")]).toBe(true);
    expect(SandboxError.is(error)).toBe(true);
    expect(SandboxError.is(error, "sandbox.timeout")).toBe(true);
    expect(SandboxError.is(error, "sandbox.out_of_memory")).toBe(false);
    expect(SandboxError.is(new Error("plain"))).toBe(false);
  });

  it("is() on a subclass narrows to that subclass and refuses its siblings", () => {
    const error: unknown = new SandboxTimeoutError("too slow", { details: { timeoutMs: 5 } });
    expect(SandboxTimeoutError.is(error)).toBe(true);
    expect(SandboxOutOfMemoryError.is(error)).toBe(false);
    if (SandboxTimeoutError.is(error)) expect(error.code).toBe("sandbox.timeout");
  });
});
