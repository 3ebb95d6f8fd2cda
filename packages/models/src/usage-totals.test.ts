import { describe, expect, it } from "vitest";
import { InvalidModelUsageError } from "./invalid-model-usage-error.js";
import { createModelRegistry } from "./model-registry.js";
import { priceModelCall, type PricedModelCall } from "./price-model-call.js";
import { addModelCallToTotals, emptyUsageTotals, sumUsageTotals, type UsageTotals } from "./usage-totals.js";

const gpt4oMini = (usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; reasoningTokens?: number }) =>
  priceModelCall({ provider: "openai.chat", modelId: "gpt-4o-mini", usage });
const unknownModel = (usage: { inputTokens: number; outputTokens: number }) =>
  priceModelCall({ provider: "openai-compatible.chat", modelId: "llama-3.3-70b", usage });
const totalsOf = (calls: readonly PricedModelCall[]): UsageTotals => calls.reduce(addModelCallToTotals, emptyUsageTotals());

describe("the null/0 rule of UsageTotals.costUsd", () => {
  it("no model calls at all → costUsd 0, a real zero-dollar total", () => {
    expect(emptyUsageTotals()).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
      pricedCalls: 0,
      unpricedCalls: 0,
    });
    expect(sumUsageTotals([]).costUsd).toBe(0);
    expect(sumUsageTotals([emptyUsageTotals(), emptyUsageTotals()]).costUsd).toBe(0);
  });

  it("every call unpriced → costUsd null (not 0), tokens still counted", () => {
    const totals = totalsOf([unknownModel({ inputTokens: 100, outputTokens: 10 }), unknownModel({ inputTokens: 50, outputTokens: 5 })]);
    expect(totals).toEqual({
      inputTokens: 150,
      outputTokens: 15,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: null,
      pricedCalls: 0,
      unpricedCalls: 2,
    });
  });

  it("priced and unpriced mixed → the priced sum, with the unpriced calls counted: 1,000×0.15 + 500×0.60 = $0.00045", () => {
    const totals = totalsOf([unknownModel({ inputTokens: 7_000, outputTokens: 300 }), gpt4oMini({ inputTokens: 1_000, outputTokens: 500 })]);
    expect(totals.costUsd).toBe(0.00045);
    expect(totals).toMatchObject({ pricedCalls: 1, unpricedCalls: 1, inputTokens: 8_000, outputTokens: 800 });
  });

  it("the order of priced and unpriced calls does not matter", () => {
    const priced = gpt4oMini({ inputTokens: 1_000, outputTokens: 500 });
    const unpriced = unknownModel({ inputTokens: 7_000, outputTokens: 300 });
    expect(totalsOf([priced, unpriced])).toEqual(totalsOf([unpriced, priced]));
  });

  it("a priced call costing $0 keeps the total a number: 0, with pricedCalls 1", () => {
    const free = priceModelCall(
      { provider: "ollama", modelId: "qwen3", usage: { inputTokens: 10, outputTokens: 10 } },
      createModelRegistry([{ provider: "ollama", modelId: "qwen3", pricing: { inputPerMillionUsd: 0, outputPerMillionUsd: 0 } }]),
    );
    const totals = totalsOf([free, unknownModel({ inputTokens: 1, outputTokens: 1 })]);
    expect(totals.costUsd).toBe(0);
    expect(totals).toMatchObject({ pricedCalls: 1, unpricedCalls: 1 });
  });

  it("sumUsageTotals: null + null → null; null + no calls → null; null + priced → the priced number", () => {
    const unpricedScope = totalsOf([unknownModel({ inputTokens: 10, outputTokens: 1 })]);
    const pricedScope = totalsOf([gpt4oMini({ inputTokens: 1_000, outputTokens: 500 })]);
    expect(sumUsageTotals([unpricedScope, unpricedScope]).costUsd).toBeNull();
    expect(sumUsageTotals([unpricedScope, emptyUsageTotals()]).costUsd).toBeNull();
    const mixed = sumUsageTotals([unpricedScope, pricedScope, emptyUsageTotals()]);
    expect(mixed.costUsd).toBe(0.00045);
    expect(mixed).toMatchObject({ pricedCalls: 1, unpricedCalls: 1, inputTokens: 1_010, outputTokens: 501 });
  });
});

describe("summing without float drift", () => {
  // A model at $0.10 per 1M input tokens: 1M tokens cost exactly $0.1, 2M tokens exactly $0.2.
  const registry = createModelRegistry([{ provider: "acme", modelId: "tenth", pricing: { inputPerMillionUsd: 0.1, outputPerMillionUsd: 0 } }]);
  const call = (inputTokens: number) => priceModelCall({ provider: "acme", modelId: "tenth", usage: { inputTokens, outputTokens: 0 } }, registry);

  it("$0.1 + $0.2 = $0.3 exactly (plain floats give 0.30000000000000004)", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(totalsOf([call(1_000_000), call(2_000_000)]).costUsd).toBe(0.3);
    expect(sumUsageTotals([totalsOf([call(1_000_000)]), totalsOf([call(2_000_000)])]).costUsd).toBe(0.3);
  });

  it("ten calls of $0.1 sum to $1 exactly, and 1,000 calls of gpt-4o-mini at 1 in / 1 out to 1,000×(0.15 + 0.60)/1M = $0.00075", () => {
    expect(totalsOf(Array.from({ length: 10 }, () => call(1_000_000))).costUsd).toBe(1);
    const tiny = gpt4oMini({ inputTokens: 1, outputTokens: 1 });
    expect(tiny.costUsd).toBe(0.00000075);
    expect(totalsOf(Array.from({ length: 1_000 }, () => tiny)).costUsd).toBe(0.00075);
  });

  it("large totals keep their cents: 30,000 calls of $1.2345 = $37,035 exactly", () => {
    const big = createModelRegistry([{ provider: "acme", modelId: "big", pricing: { inputPerMillionUsd: 1.2345, outputPerMillionUsd: 0 } }]);
    const dollarCall = priceModelCall({ provider: "acme", modelId: "big", usage: { inputTokens: 1_000_000, outputTokens: 0 } }, big);
    expect(dollarCall.costUsd).toBe(1.2345);
    expect(totalsOf(Array.from({ length: 30_000 }, () => dollarCall)).costUsd).toBe(37_035);
  });
});

describe("exactness beyond what one float can hold", () => {
  const registry = createModelRegistry([{ provider: "acme", modelId: "odd", pricing: { inputPerMillionUsd: 1.234567, outputPerMillionUsd: 0 } }]);
  const call = priceModelCall({ provider: "acme", modelId: "odd", usage: { inputTokens: 999_999_999, outputTokens: 0 } }, registry);

  it("one call of 999,999,999 tokens × $1.234567/1M = $1,234.566998765433", () => {
    expect(call.costUsd).toBe(1234.566998765433);
  });

  it("folding 10 of them gives 10 × 1,234.566998765433 = $12,345.66998765433 (16 significant digits, carried exactly)", () => {
    expect(totalsOf(Array.from({ length: 10 }, () => call)).costUsd).toBe(12345.66998765433);
  });

  it("totals that went through JSON (no exact carry) still sum exactly below $1,000: 3 × (1,000×0.15 + 500×0.60)/1M = $0.00135", () => {
    const scope = JSON.parse(JSON.stringify(totalsOf([gpt4oMini({ inputTokens: 1_000, outputTokens: 500 })]))) as UsageTotals;
    expect(sumUsageTotals([scope, scope, scope]).costUsd).toBe(0.00135);
    const spread = { ...totalsOf([gpt4oMini({ inputTokens: 1_000, outputTokens: 500 })]) };
    expect(addModelCallToTotals(spread, gpt4oMini({ inputTokens: 1_000, outputTokens: 500 })).costUsd).toBe(0.0009);
  });
});

describe("token totals", () => {
  it("adds every token kind, cached and reasoning as subsets", () => {
    const totals = totalsOf([
      gpt4oMini({ inputTokens: 10_000, cachedInputTokens: 4_000, outputTokens: 1_000, reasoningTokens: 0 }),
      priceModelCall({ provider: "openai", modelId: "o4-mini", usage: { inputTokens: 500, outputTokens: 2_000, reasoningTokens: 1_500 } }),
    ]);
    // gpt-4o-mini: 6,000×0.15 + 4,000×0.075 + 1,000×0.60 = 0.0018; o4-mini: 500×1.10 + 2,000×4.40 = 0.00055 + 0.0088 = 0.00935.
    expect(totals).toEqual({
      inputTokens: 10_500,
      outputTokens: 3_000,
      cachedInputTokens: 4_000,
      reasoningTokens: 1_500,
      costUsd: 0.01115,
      pricedCalls: 2,
      unpricedCalls: 0,
    });
  });
});

describe("invalid totals and calls", () => {
  const valid = emptyUsageTotals();

  it.each<[string, unknown, string]>([
    ["costUsd 0 with only unpriced calls", { ...valid, unpricedCalls: 1, costUsd: 0 }, "totals[0].costUsd"],
    ["costUsd null with a priced call", { ...valid, pricedCalls: 1, costUsd: null }, "totals[0].costUsd"],
    ["costUsd null with no calls", { ...valid, costUsd: null }, "totals[0].costUsd"],
    ["a negative cost", { ...valid, pricedCalls: 1, costUsd: -0.5 }, "totals[0].costUsd"],
    ["fractional calls", { ...valid, pricedCalls: 0.5 }, "totals[0].pricedCalls"],
    ["cached more than input", { ...valid, inputTokens: 1, cachedInputTokens: 2 }, "totals[0].cachedInputTokens"],
    ["a missing field", { inputTokens: 0, outputTokens: 0 }, "totals[0].cachedInputTokens"],
    ["not an object", 42, "totals[0]"],
  ])("sumUsageTotals rejects %s at %s", (_label, totals, field) => {
    let thrown: unknown;
    try {
      sumUsageTotals([totals as UsageTotals]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidModelUsageError);
    expect(thrown).toMatchObject({ code: "models.invalid_usage", field });
  });

  it("addModelCallToTotals rejects a priced call whose cost was tampered with", () => {
    const priced = gpt4oMini({ inputTokens: 1, outputTokens: 1 });
    expect(() => addModelCallToTotals(emptyUsageTotals(), { ...priced, costUsd: null })).toThrow(/pricedCall\.costUsd/);
    expect(() => addModelCallToTotals(emptyUsageTotals(), { ...priced, priced: false })).toThrow(InvalidModelUsageError);
    const unpriced = unknownModel({ inputTokens: 1, outputTokens: 1 });
    expect(() => addModelCallToTotals(emptyUsageTotals(), { ...unpriced, costUsd: 0 })).toThrow(/null when priced is false/);
  });

  it("addModelCallToTotals rejects bad totals with the path `totals`", () => {
    expect(() => addModelCallToTotals({ ...valid, costUsd: null }, gpt4oMini({ inputTokens: 1, outputTokens: 1 }))).toThrow(
      /Invalid totals\.costUsd: with 0 priced and 0 unpriced calls it must be 0 \(no calls\)/,
    );
  });

  it("sumUsageTotals rejects a non-array", () => {
    expect(() => sumUsageTotals(undefined as unknown as UsageTotals[])).toThrow(InvalidModelUsageError);
  });
});
