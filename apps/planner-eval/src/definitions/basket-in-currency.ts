import { createToolRegistry, defineWorkflow, model } from "@little-stack/workflow";
import { tool } from "ai";
import { z } from "zod";
import { expectEqual, isRecord } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const catalogue: Record<string, { sku: string; name: string; priceUsdCents: number }> = {
  "KB-101": { sku: "KB-101", name: "Mechanical keyboard", priceUsdCents: 7_999 },
  "MS-220": { sku: "MS-220", name: "Wireless mouse", priceUsdCents: 2_499 },
  "HD-310": { sku: "HD-310", name: "Noise-cancelling headset", priceUsdCents: 12_950 },
  "CB-005": { sku: "CB-005", name: "USB-C cable, 2 m", priceUsdCents: 899 },
};

const ratesFromUsd: Record<string, number> = { USD: 1, EUR: 0.9218, GBP: 0.7862, CHF: 0.8847 };

export function pricingTools() {
  return createToolRegistry({
    getPrice: tool({
      description: "The catalogue price of one product, in US cents.",
      inputSchema: z.object({ sku: z.string() }),
      outputSchema: z.object({ sku: z.string(), name: z.string(), priceUsdCents: z.number().int() }),
      execute: async ({ sku }) => {
        const entry = catalogue[sku];
        if (entry === undefined) throw new Error(`unknown sku ${sku}`);
        return entry;
      },
    }),
    getExchangeRate: tool({
      description: "Today's exchange rate: 1 unit of `from` is `rate` units of `to`. Only from USD.",
      inputSchema: z.object({ from: z.literal("USD"), to: z.string().describe("ISO currency code, e.g. EUR.") }),
      outputSchema: z.object({ from: z.string(), to: z.string(), rate: z.number() }),
      execute: async ({ from, to }) => {
        const rate = ratesFromUsd[to];
        if (rate === undefined) throw new Error(`no rate USD→${to}`);
        return { from, to, rate };
      },
    }),
  });
}

const items = [
  { sku: "KB-101", quantity: 2 },
  { sku: "HD-310", quantity: 1 },
  { sku: "CB-005", quantity: 4 },
];

/** Level 6: code that calls tools (prices and a rate) and does exact arithmetic with the results. */
export const basketInCurrency: EvalDefinition = {
  name: "basket-in-currency",
  level: 6,
  covers: "code.run calling tools from code",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "shop.basket-in-currency",
      description:
        "Price a basket in the customer's currency. Each line: priceUsdCents × quantity × the USD→currency rate, rounded half up to whole minor units (cents). totalMinor: the sum of the rounded lines.",
      input: z.object({ currency: z.string().describe("ISO code: EUR, GBP, CHF or USD."), items: z.array(z.object({ sku: z.string(), quantity: z.number().int().min(1) })).min(1) }),
      output: z.object({
        currency: z.string(),
        lines: z.array(z.object({ sku: z.string(), quantity: z.number().int(), amountMinor: z.number().int() })),
        totalMinor: z.number().int(),
      }),
      models: [model(models("general"), { id: "general", description: "General-purpose model." })],
      tools: pricingTools(),
      planner: {
        model: models("planner"),
        system: "You design pricing workflows for our shop. Prices and rates come only from the tools; the figures must be exact and reproducible, with the lines in the order of the input.",
      },
    }),
    input: { currency: "EUR", items },
  }),
  // 15,998 × 0.9218 = 14,746.96 → 14,747; 12,950 × 0.9218 = 11,937.31 → 11,937; 3,596 × 0.9218 = 3,314.79 → 3,315.
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    return verdict([
      expectEqual("currency", output.currency, "EUR"),
      expectEqual("lines", output.lines, [
        { sku: "KB-101", quantity: 2, amountMinor: 14_747 },
        { sku: "HD-310", quantity: 1, amountMinor: 11_937 },
        { sku: "CB-005", quantity: 4, amountMinor: 3_315 },
      ]),
      expectEqual("totalMinor", output.totalMinor, 29_999),
    ]);
  },
};
