import { LittleWorkflowError } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { defaultMemoryConfig, resolveMemoryConfig } from "./memory-config.js";
import { MemoryConfigError } from "./memory-config-error.js";

function errorOf(run: () => unknown): MemoryConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof MemoryConfigError) return error;
    throw error;
  }
  throw new Error("expected a MemoryConfigError");
}

describe("resolveMemoryConfig", () => {
  it("fills defaults: workflow rw, org ro, nothing attached", () => {
    expect(resolveMemoryConfig(undefined)).toEqual({ workflow: "rw", org: "ro", attach: [] });
    expect(resolveMemoryConfig({})).toEqual(defaultMemoryConfig);
  });

  it("keeps explicit values and sorts attached ids", () => {
    expect(resolveMemoryConfig({ workflow: "none", org: "rw", attach: ["b.flow", "a-flow"] })).toEqual({
      workflow: "none",
      org: "rw",
      attach: ["a-flow", "b.flow"],
    });
  });

  it("names the field of a bad access value", () => {
    const error = errorOf(() => resolveMemoryConfig({ org: "write" }));
    expect(error.code).toBe("memory.invalid_config");
    expect(error.path).toBe("memory.org");
    expect(error.message).toContain('expected "rw", "ro" or "none", got "write"');
    expect(LittleWorkflowError.is(error, "memory.invalid_config")).toBe(true);
  });

  it("refuses unknown fields (typos) and non-objects", () => {
    expect(errorOf(() => resolveMemoryConfig({ workflows: "rw" })).path).toBe("memory.workflows");
    expect(errorOf(() => resolveMemoryConfig("rw")).message).toContain("expected an object");
    expect(errorOf(() => resolveMemoryConfig(null)).path).toBe("memory");
  });

  it("refuses bad, duplicate and self attachments with their index", () => {
    expect(errorOf(() => resolveMemoryConfig({ attach: "peer" })).path).toBe("memory.attach");
    expect(errorOf(() => resolveMemoryConfig({ attach: ["ok", "../evil"] })).path).toBe("memory.attach[1]");
    expect(errorOf(() => resolveMemoryConfig({ attach: ["a", "a"] })).message).toContain("attached twice");
    const self = errorOf(() => resolveMemoryConfig({ attach: ["me"] }, { ownWorkflowId: "me" }));
    expect(self.path).toBe("memory.attach[0]");
    expect(self.message).toContain("cannot attach its own store");
  });
});
