import { describe, expect, it } from "vitest";
import { bundledModelEntries } from "./bundled-model-entries.js";
import { bundledModelRegistry } from "./bundled-model-registry.js";

describe("the bundled registry data", () => {
  it.each([
    "openai/gpt-5",
    "openai/gpt-5-mini",
    "openai/gpt-5-nano",
    "openai/gpt-4.1",
    "openai/gpt-4.1-mini",
    "openai/gpt-4.1-nano",
    "openai/gpt-4o",
    "openai/gpt-4o-mini",
    "openai/o3",
    "openai/o4-mini",
    "anthropic/claude-opus-5-5",
    "anthropic/claude-sonnet-5-5",
    "anthropic/claude-haiku-5-5",
    "anthropic/claude-haiku-4-5",
    "google/gemini-2.5-pro",
    "google/gemini-2.5-flash",
  ])("prices %s", (key) => {
    const [provider = "", modelId = ""] = key.split("/");
    const resolution = bundledModelRegistry.resolve({ provider, modelId });
    expect(resolution?.rule).toBe("exact");
    expect(resolution?.entry.pricing?.inputPerMillionUsd).toBeGreaterThan(0);
    expect(resolution?.entry.pricing?.outputPerMillionUsd).toBeGreaterThan(0);
  });

  it("records where every figure came from and when it was checked", () => {
    for (const entry of bundledModelEntries) {
      expect(entry.source, `${entry.provider}/${entry.modelId}`).toMatch(/^https:\/\//);
      expect(entry.checkedAt, `${entry.provider}/${entry.modelId}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("says so in the source when only an older figure could be confirmed", () => {
    const gpt41 = bundledModelRegistry.resolve({ provider: "openai", modelId: "gpt-4.1" })?.entry;
    expect(gpt41?.source).toMatch(/confirmed only from a copy dated 2025-06-03/);
  });

  it("keeps output at least as expensive as input and cache reads no dearer than input", () => {
    for (const entry of bundledModelEntries) {
      const pricing = entry.pricing;
      if (pricing === undefined) continue;
      expect(pricing.outputPerMillionUsd).toBeGreaterThanOrEqual(pricing.inputPerMillionUsd);
      expect(pricing.cachedInputPerMillionUsd ?? pricing.inputPerMillionUsd).toBeLessThanOrEqual(pricing.inputPerMillionUsd);
    }
  });

  it("every bundled entry passed registry validation", () => {
    expect(bundledModelRegistry.entries.length).toBe(bundledModelEntries.length);
  });
});
