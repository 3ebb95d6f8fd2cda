import { describe, expect, it } from "vitest";
import { bundledModelRegistry } from "./bundled-model-registry.js";
import { modelKeyCandidates } from "./model-reference-resolution.js";
import { createModelRegistry } from "./model-registry.js";

describe("resolving AI SDK model references in the bundled registry", () => {
  it.each([
    ["openai", "gpt-4o-mini", "openai/gpt-4o-mini", "exact"],
    ["openai.chat", "gpt-4o-mini", "openai/gpt-4o-mini", "provider-alias"],
    ["openai.responses", "gpt-5", "openai/gpt-5", "provider-alias"],
    ["openai", "gpt-4o-mini-2024-07-18", "openai/gpt-4o-mini", "snapshot"],
    ["openai.responses", "gpt-5-mini-2025-08-07", "openai/gpt-5-mini", "provider-alias-and-snapshot"],
    ["anthropic.messages", "claude-haiku-4-5-20251001", "anthropic/claude-haiku-4-5", "provider-alias-and-snapshot"],
    ["google.generative-ai", "models/gemini-2.5-flash", "google/gemini-2.5-flash", "provider-alias"],
    ["OpenAI", "GPT-4o-Mini", "openai/gpt-4o-mini", "exact"],
    ["openai.completion", "gpt-4.1-nano", "openai/gpt-4.1-nano", "provider-alias"],
    ["google.vertex.chat", "gemini-2.5-pro", "google/gemini-2.5-pro", "provider-alias"],
  ])("%s + %s → %s (%s)", (provider, modelId, key, rule) => {
    const resolution = bundledModelRegistry.resolve({ provider, modelId });
    expect(resolution?.key).toBe(key);
    expect(resolution?.rule).toBe(rule);
  });

  it("a dated snapshot with its own entry wins over its base model", () => {
    const snapshot = bundledModelRegistry.resolve({ provider: "openai.chat", modelId: "gpt-4o-2024-05-13" });
    expect(snapshot?.key).toBe("openai/gpt-4o-2024-05-13");
    expect(snapshot?.entry.pricing?.inputPerMillionUsd).toBe(5);
    const later = bundledModelRegistry.resolve({ provider: "openai.chat", modelId: "gpt-4o-2024-11-20" });
    expect(later?.key).toBe("openai/gpt-4o");
    expect(later?.entry.pricing?.inputPerMillionUsd).toBe(2.5);
  });

  it.each([
    ["openai-compatible.chat", "gpt-4o-mini"],
    ["azure.chat", "gpt-4o-mini"],
    ["google.vertex.anthropic.messages", "claude-sonnet-5-5"],
    ["openai", "gpt-4o-mini-preview"],
    ["openai", "gpt-4o-mini-2024-07"],
    ["anthropic", "claude-haiku"],
    ["", "gpt-4o"],
  ])("%s + %s is not resolved (no guessing beyond the documented rules)", (provider, modelId) => {
    expect(bundledModelRegistry.resolve({ provider, modelId })).toBeUndefined();
  });

  it("an exact user entry for a dotted provider wins over the provider family", () => {
    const registry = createModelRegistry(
      [{ provider: "azure.chat", modelId: "gpt-4o-mini", pricing: { inputPerMillionUsd: 0.165, outputPerMillionUsd: 0.66 } }],
      { extends: bundledModelRegistry },
    );
    expect(registry.resolve({ provider: "azure.chat", modelId: "gpt-4o-mini" })?.entry.pricing?.inputPerMillionUsd).toBe(0.165);
    expect(registry.resolve({ provider: "openai.chat", modelId: "gpt-4o-mini" })?.entry.pricing?.inputPerMillionUsd).toBe(0.15);
  });
});

describe("modelKeyCandidates", () => {
  it("lists the rules most specific first and without duplicates", () => {
    expect(modelKeyCandidates({ provider: "openai.chat", modelId: "gpt-4o-2024-08-06" })).toEqual([
      { key: "openai.chat/gpt-4o-2024-08-06", rule: "exact" },
      { key: "openai/gpt-4o-2024-08-06", rule: "provider-alias" },
      { key: "openai.chat/gpt-4o", rule: "snapshot" },
      { key: "openai/gpt-4o", rule: "provider-alias-and-snapshot" },
    ]);
    expect(modelKeyCandidates({ provider: "openai", modelId: "gpt-4o" })).toEqual([{ key: "openai/gpt-4o", rule: "exact" }]);
  });

  it("never strips a model id that is only a date", () => {
    expect(modelKeyCandidates({ provider: "x", modelId: "20250101" })).toEqual([{ key: "x/20250101", rule: "exact" }]);
  });
});
