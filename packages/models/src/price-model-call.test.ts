import { describe, expect, it } from "vitest";
import { InvalidModelUsageError } from "./invalid-model-usage-error.js";
import { createModelRegistry } from "./model-registry.js";
import { priceModelCall } from "./price-model-call.js";

// Every expected dollar figure below is worked out by hand in the test name:
// tokens × (USD per 1M tokens) / 1,000,000, summed per token kind.

describe("priceModelCall with the bundled registry", () => {
  it("gpt-4o-mini, 1,000 in / 500 out: 1,000×0.15/1M + 500×0.60/1M = 0.00015 + 0.0003 = $0.00045", () => {
    const priced = priceModelCall({ provider: "openai", modelId: "gpt-4o-mini", usage: { inputTokens: 1_000, outputTokens: 500 } });
    expect(priced.costUsd).toBe(0.00045);
    expect(priced.priced).toBe(true);
    expect(priced.entry?.modelId).toBe("gpt-4o-mini");
  });

  it("gpt-4o-mini cached: 10,000 in of which 4,000 cached, 1,000 out: 6,000×0.15 + 4,000×0.075 + 1,000×0.60 = 0.0009 + 0.0003 + 0.0006 = $0.0018", () => {
    const priced = priceModelCall({
      provider: "openai",
      modelId: "gpt-4o-mini",
      usage: { inputTokens: 10_000, cachedInputTokens: 4_000, outputTokens: 1_000 },
    });
    expect(priced.costUsd).toBe(0.0018);
  });

  it("the cache discount is real: the same call without cached tokens costs 10,000×0.15 + 1,000×0.60 = $0.0021", () => {
    const priced = priceModelCall({ provider: "openai", modelId: "gpt-4o-mini", usage: { inputTokens: 10_000, outputTokens: 1_000 } });
    expect(priced.costUsd).toBe(0.0021);
  });

  it("gpt-5 with reasoning: 2,000 in (500 cached), 3,000 out (2,500 reasoning): 1,500×1.25 + 500×0.125 + 3,000×10 = 0.001875 + 0.0000625 + 0.03 = $0.0319375", () => {
    const priced = priceModelCall({
      provider: "openai.responses",
      modelId: "gpt-5",
      usage: { inputTokens: 2_000, cachedInputTokens: 500, outputTokens: 3_000, reasoningTokens: 2_500 },
    });
    expect(priced.costUsd).toBe(0.0319375);
    // Reasoning tokens are already inside outputTokens: they do not add a second charge.
    const withoutReasoning = priceModelCall({
      provider: "openai.responses",
      modelId: "gpt-5",
      usage: { inputTokens: 2_000, cachedInputTokens: 500, outputTokens: 3_000 },
    });
    expect(withoutReasoning.costUsd).toBe(priced.costUsd);
    expect(priced.usage.reasoningTokens).toBe(2_500);
  });

  it("claude-sonnet-5-5 cached: 100,000 in (80,000 cached), 2,000 out: 20,000×2 + 80,000×0.10 + 2,000×10 = 0.04 + 0.008 + 0.02 = $0.068", () => {
    const priced = priceModelCall({
      provider: "anthropic.messages",
      modelId: "claude-sonnet-5-5",
      usage: { inputTokens: 100_000, cachedInputTokens: 80_000, outputTokens: 2_000 },
    });
    expect(priced.costUsd).toBe(0.068);
  });

  it("claude-haiku-5-5 at exactly 100,000 in stays in the standard band: 100,000×0.10 + 1,000×0.50 = 0.01 + 0.0005 = $0.0105", () => {
    const priced = priceModelCall({ provider: "anthropic", modelId: "claude-haiku-5-5", usage: { inputTokens: 100_000, outputTokens: 1_000 } });
    expect(priced.costUsd).toBe(0.0105);
    expect(priced.band).toBe("standard");
  });

  it("claude-haiku-5-5 at 100,001 in moves every token to the long band: 100,001×0.50 + 1,000×2.50 = 0.0500005 + 0.0025 = $0.0525005", () => {
    const priced = priceModelCall({ provider: "anthropic", modelId: "claude-haiku-5-5", usage: { inputTokens: 100_001, outputTokens: 1_000 } });
    expect(priced.costUsd).toBe(0.0525005);
    expect(priced.band).toBe("long-context");
  });

  it("gemini-2.5-pro above 200,000 in: 250,000 in (50,000 cached), 4,000 out: 200,000×2.50 + 50,000×0.25 + 4,000×15 = 0.5 + 0.0125 + 0.06 = $0.5725", () => {
    const priced = priceModelCall({
      provider: "google.generative-ai",
      modelId: "gemini-2.5-pro",
      usage: { inputTokens: 250_000, cachedInputTokens: 50_000, outputTokens: 4_000 },
    });
    expect(priced.costUsd).toBe(0.5725);
  });

  it("a model without a cached rate bills cached tokens as input: gpt-4o-2024-05-13, 1,000 in (400 cached), 100 out: 1,000×5 + 100×15 = 0.005 + 0.0015 = $0.0065", () => {
    const priced = priceModelCall({
      provider: "openai",
      modelId: "gpt-4o-2024-05-13",
      usage: { inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 100 },
    });
    expect(priced.costUsd).toBe(0.0065);
  });

  it("tiny calls stay exact: gpt-5-nano, 1 in (1 cached) / 1 out: 1×0.005 + 1×0.40 = 0.000000005 + 0.0000004 = $0.000000405", () => {
    const priced = priceModelCall({
      provider: "openai",
      modelId: "gpt-5-nano",
      usage: { inputTokens: 1, cachedInputTokens: 1, outputTokens: 1 },
    });
    expect(priced.costUsd).toBe(0.000000405);
  });

  it("a priced call with zero tokens is a real $0, not unpriced", () => {
    const priced = priceModelCall({ provider: "openai", modelId: "gpt-4o", usage: { inputTokens: 0, outputTokens: 0 } });
    expect(priced).toMatchObject({ costUsd: 0, priced: true });
  });
});

describe("priceModelCall for models the registry cannot price", () => {
  it("an unknown model is unpriced: costUsd null, never 0, and no entry", () => {
    const priced = priceModelCall({ provider: "openai-compatible.chat", modelId: "llama-3.3-70b", usage: { inputTokens: 5_000, outputTokens: 800 } });
    expect(priced.costUsd).toBeNull();
    expect(priced.costUsd).not.toBe(0);
    expect(priced.priced).toBe(false);
    expect(priced.entry).toBeUndefined();
    expect(priced.usage).toEqual({ inputTokens: 5_000, outputTokens: 800, cachedInputTokens: 0, reasoningTokens: 0 });
  });

  it("a known model without pricing is unpriced but keeps its entry", () => {
    const registry = createModelRegistry([
      { provider: "loopback", modelId: "scripted", contextWindowTokens: 8_192, capabilities: { tools: true } },
    ]);
    const priced = priceModelCall({ provider: "loopback", modelId: "scripted", usage: { inputTokens: 10, outputTokens: 10 } }, registry);
    expect(priced.costUsd).toBeNull();
    expect(priced.priced).toBe(false);
    expect(priced.entry?.contextWindowTokens).toBe(8_192);
  });

  it("a model priced at $0 (a local model) is priced and costs exactly 0", () => {
    const registry = createModelRegistry([
      { provider: "ollama", modelId: "qwen3", pricing: { inputPerMillionUsd: 0, outputPerMillionUsd: 0 } },
    ]);
    const priced = priceModelCall({ provider: "ollama", modelId: "qwen3", usage: { inputTokens: 1_000, outputTokens: 1_000 } }, registry);
    expect(priced).toMatchObject({ costUsd: 0, priced: true });
  });

  it("a registry that does not extend the bundled one does not price bundled models", () => {
    const registry = createModelRegistry([]);
    const priced = priceModelCall({ provider: "openai", modelId: "gpt-4o-mini", usage: { inputTokens: 1, outputTokens: 1 } }, registry);
    expect(priced.costUsd).toBeNull();
  });
});

describe("priceModelCall rejects usage it cannot price", () => {
  const call = (usage: unknown) => () =>
    priceModelCall({ provider: "openai", modelId: "gpt-4o-mini", usage: usage as { inputTokens: number; outputTokens: number } });

  it.each([
    ["negative input", { inputTokens: -1, outputTokens: 0 }, "usage.inputTokens"],
    ["fractional output", { inputTokens: 10, outputTokens: 1.5 }, "usage.outputTokens"],
    ["NaN input", { inputTokens: Number.NaN, outputTokens: 0 }, "usage.inputTokens"],
    ["a string count", { inputTokens: "10", outputTokens: 0 }, "usage.inputTokens"],
    ["missing outputTokens", { inputTokens: 10 }, "usage.outputTokens"],
    ["negative cached", { inputTokens: 10, outputTokens: 0, cachedInputTokens: -2 }, "usage.cachedInputTokens"],
    ["cached more than input", { inputTokens: 10, outputTokens: 0, cachedInputTokens: 11 }, "usage.cachedInputTokens"],
    ["reasoning more than output", { inputTokens: 10, outputTokens: 5, reasoningTokens: 6 }, "usage.reasoningTokens"],
    ["no usage at all", undefined, "usage"],
  ])("%s → InvalidModelUsageError at %s", (_label, usage, field) => {
    expect(call(usage)).toThrow(InvalidModelUsageError);
    try {
      call(usage)();
    } catch (error) {
      expect(error).toMatchObject({ code: "models.invalid_usage", field });
      expect((error as Error).message).toContain(field);
    }
  });

  it("names the problem and the fix in the message", () => {
    expect(call({ inputTokens: 10, outputTokens: 0, cachedInputTokens: 11 })).toThrow(
      /usage\.cachedInputTokens: cached input tokens are a subset of inputTokens \(10\).*got 11.*cached tokens included/,
    );
  });

  it("rejects an empty provider or model id", () => {
    expect(() => priceModelCall({ provider: "", modelId: "gpt-4o", usage: { inputTokens: 1, outputTokens: 1 } })).toThrow(
      /Invalid provider: expected a non-empty string/,
    );
    expect(() => priceModelCall({ provider: "openai", modelId: " ", usage: { inputTokens: 1, outputTokens: 1 } })).toThrow(
      /Invalid modelId/,
    );
  });
});
