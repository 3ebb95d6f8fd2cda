import { describe, expect, it } from "vitest";
import { InvalidModelRegistryError } from "./invalid-model-registry-error.js";
import { InvalidModelUsageError } from "./invalid-model-usage-error.js";
import { ModelsError } from "./models-error.js";

describe("errors of @little-stack/models", () => {
  const usageError = new InvalidModelUsageError({ field: "usage.inputTokens", problem: "expected a non-negative integer count", value: -1, fix: "Fix it." });

  it("carry the registered brand canonical's LittleWorkflowError.is() checks", () => {
    const brand = Symbol.for("@little-stack/little-workflow-error");
    expect((usageError as unknown as Record<symbol, unknown>)[brand]).toBe(true);
    expect(Object.keys(usageError)).not.toContain(brand.toString());
  });

  it("is() recognises errors of its class (any copy of the package), optionally by code, and nothing else", () => {
    const registryError = new InvalidModelRegistryError({ key: "a/b", field: "checkedAt", problem: "is bad", fix: "Fix it." });
    expect(ModelsError.is(usageError)).toBe(true);
    expect(ModelsError.is(registryError, "models.invalid_registry_entry")).toBe(true);
    expect(ModelsError.is(registryError, "models.invalid_usage")).toBe(false);
    expect(ModelsError.is(new Error("plain"))).toBe(false);
    expect(ModelsError.is({ code: "models.invalid_usage" })).toBe(false);
    expect(ModelsError.is(null)).toBe(false);
    // Brand and lineage set by another copy of the package (the symbols are registered, not module-local).
    const foreign = Object.defineProperty(new Error("x"), Symbol.for("@little-stack/little-workflow-error"), { value: true });
    expect(ModelsError.is(foreign)).toBe(false); // branded, but not of this class
    Object.defineProperty(foreign, Symbol.for("@little-stack/little-workflow-error.lineage"), { value: ["InvalidModelUsageError", "ModelsError"] });
    expect(ModelsError.is(foreign)).toBe(true);
    expect(InvalidModelUsageError.is(foreign)).toBe(true);
    expect(InvalidModelRegistryError.is(foreign)).toBe(false);
    expect(InvalidModelRegistryError.is(usageError)).toBe(false);
  });

  it("have the shape of LittleWorkflowError: name, code, details, cause", () => {
    expect(usageError.name).toBe("InvalidModelUsageError");
    expect(usageError.code).toBe("models.invalid_usage");
    expect(usageError.details).toEqual({ field: "usage.inputTokens", value: -1 });
    const cause = new Error("root");
    expect(new ModelsError("models.x", "m", { cause }).cause).toBe(cause);
    expect(new ModelsError("models.x", "m").details).toEqual({});
  });
});
