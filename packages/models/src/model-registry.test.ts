import { describe, expect, it } from "vitest";
import { bundledModelRegistry } from "./bundled-model-registry.js";
import { InvalidModelRegistryError } from "./invalid-model-registry-error.js";
import type { ModelRegistryEntryInput } from "./model-registry-entry.js";
import { createModelRegistry } from "./model-registry.js";
import { priceModelCall } from "./price-model-call.js";

describe("createModelRegistry", () => {
  it("overrides a bundled price with extends: 1,000 in / 1,000 out at a negotiated $0.10 / $0.40 = 0.0001 + 0.0004 = $0.0005", () => {
    const registry = createModelRegistry(
      [
        {
          provider: "openai",
          modelId: "gpt-4o-mini",
          pricing: { inputPerMillionUsd: 0.1, outputPerMillionUsd: 0.4 },
          source: "our enterprise contract",
          checkedAt: "2026-11-01",
        },
      ],
      { extends: bundledModelRegistry },
    );
    const usage = { inputTokens: 1_000, outputTokens: 1_000 };
    expect(priceModelCall({ provider: "openai.chat", modelId: "gpt-4o-mini-2024-07-18", usage }, registry).costUsd).toBe(0.0005);
    // Everything else is inherited: gpt-4o still prices at 1,000×2.50 + 1,000×10 = 0.0025 + 0.01 = $0.0125.
    expect(priceModelCall({ provider: "openai", modelId: "gpt-4o", usage }, registry).costUsd).toBe(0.0125);
    // The bundled registry itself is untouched: 1,000×0.15 + 1,000×0.60 = $0.00075.
    expect(priceModelCall({ provider: "openai", modelId: "gpt-4o-mini", usage }).costUsd).toBe(0.00075);
    expect(registry.entries.length).toBe(bundledModelRegistry.entries.length);
  });

  it("adds new models beside the inherited ones and lists entries sorted by key", () => {
    const registry = createModelRegistry(
      [{ provider: "mistral", modelId: "mistral-large", pricing: { inputPerMillionUsd: 2, outputPerMillionUsd: 6 } }],
      { extends: bundledModelRegistry },
    );
    expect(registry.entries.length).toBe(bundledModelRegistry.entries.length + 1);
    const keys = registry.entries.map((entry) => `${entry.provider}/${entry.modelId}`.toLowerCase());
    expect(keys).toEqual([...keys].sort());
    expect(registry.resolve({ provider: "mistral", modelId: "mistral-large" })?.entry).toMatchObject({
      source: "user-supplied",
      capabilities: { tools: false, structuredOutput: false, reasoning: false, vision: false },
    });
  });

  it("freezes entries so a caller cannot change the bundled prices", () => {
    const entry = bundledModelRegistry.resolve({ provider: "openai", modelId: "gpt-4o-mini" })?.entry;
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry?.pricing)).toBe(true);
    expect(Object.isFrozen(bundledModelRegistry.entries)).toBe(true);
  });

  const base: ModelRegistryEntryInput = { provider: "acme", modelId: "m1", pricing: { inputPerMillionUsd: 1, outputPerMillionUsd: 2 } };

  it.each<[string, readonly ModelRegistryEntryInput[], string]>([
    ["a duplicate key (case-insensitive)", [base, { ...base, modelId: "M1" }], "provider/modelId"],
    ["a provider with a slash", [{ ...base, provider: "acme/eu" }], "provider"],
    ["an empty model id", [{ ...base, modelId: "" }], "modelId"],
    ["a negative input rate", [{ ...base, pricing: { inputPerMillionUsd: -1, outputPerMillionUsd: 2 } }], "pricing.inputPerMillionUsd"],
    ["a rate with 7 decimals", [{ ...base, pricing: { inputPerMillionUsd: 0.0000001, outputPerMillionUsd: 2 } }], "pricing.inputPerMillionUsd"],
    ["an infinite output rate", [{ ...base, pricing: { inputPerMillionUsd: 1, outputPerMillionUsd: Infinity } }], "pricing.outputPerMillionUsd"],
    [
      "a cached rate above the input rate (swapped figures)",
      [{ ...base, pricing: { inputPerMillionUsd: 0.125, cachedInputPerMillionUsd: 1.25, outputPerMillionUsd: 10 } }],
      "pricing.cachedInputPerMillionUsd",
    ],
    [
      "a long-context band without a threshold",
      [{ ...base, pricing: { inputPerMillionUsd: 1, outputPerMillionUsd: 2, longContext: { aboveInputTokens: 0, inputPerMillionUsd: 2, outputPerMillionUsd: 4 } } }],
      "pricing.longContext.aboveInputTokens",
    ],
    ["a fractional context window", [{ ...base, contextWindowTokens: 1000.5 }], "contextWindowTokens"],
    ["a malformed checkedAt", [{ ...base, checkedAt: "29/11/2026" }], "checkedAt"],
    ["a non-boolean capability", [{ ...base, capabilities: { tools: "yes" as unknown as boolean } }], "capabilities.tools"],
  ])("rejects %s with InvalidModelRegistryError naming %s", (_label, entries, field) => {
    let thrown: unknown;
    try {
      createModelRegistry(entries);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidModelRegistryError);
    expect(thrown).toMatchObject({ code: "models.invalid_registry_entry", field });
    expect((thrown as Error).message).toContain(field);
  });

  it("says which entry is wrong and how to fix it", () => {
    expect(() =>
      createModelRegistry([{ ...base, pricing: { inputPerMillionUsd: 0.125, cachedInputPerMillionUsd: 1.25, outputPerMillionUsd: 10 } }]),
    ).toThrow(/Model registry entry acme\/m1: pricing\.cachedInputPerMillionUsd \(1\.25\) is higher than the input rate \(0\.125\)\. .*swapped/);
  });

  it("rejects entries that are not an array", () => {
    expect(() => createModelRegistry({} as unknown as readonly ModelRegistryEntryInput[])).toThrow(InvalidModelRegistryError);
  });
});
