import { describe, expect, it } from "vitest";
import { SandboxInvalidOptionsError } from "./errors/run-errors.js";
import { defaultSandboxLimits, resolveSandboxLimits } from "./sandbox-limits.js";

describe("sandbox limits", () => {
  it("has safe defaults that the caller can override one by one", () => {
    expect(defaultSandboxLimits).toMatchObject({ timeoutMs: 30_000, memoryBytes: 64 * 1024 * 1024, maxOutputBytes: 1024 * 1024, maxToolCalls: 100 });
    const limits = resolveSandboxLimits({ timeoutMs: 500 });
    expect(limits.timeoutMs).toBe(500);
    expect(limits.memoryBytes).toBe(defaultSandboxLimits.memoryBytes);
  });

  it("refuses a memory limit below the engine's 16 MiB floor, naming the limit", () => {
    expect(() => resolveSandboxLimits({ memoryBytes: 1024 })).toThrow(SandboxInvalidOptionsError);
    expect(() => resolveSandboxLimits({ memoryBytes: 1024 })).toThrow(/memoryBytes/);
  });

  it("refuses non-integers and unknown limits", () => {
    expect(() => resolveSandboxLimits({ timeoutMs: 1.5 })).toThrow(/timeoutMs must be an integer/);
    expect(() => resolveSandboxLimits({ cpuCores: 2 } as never)).toThrow(/Unknown sandbox limit "cpuCores"/);
  });
});
