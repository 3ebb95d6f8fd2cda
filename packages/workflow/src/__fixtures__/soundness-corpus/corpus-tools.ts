import { tool, type Tool } from "ai";
import { z } from "zod";
import { createToolRegistry, type ToolRegistry } from "../../index.js";

/**
 * The corpus's tools: deterministic functions of their arguments, each with an input and an
 * output schema, so a run's outcome depends only on the plan, the input and the sampled model
 * answers. `flakyQuote` fails its first call per registry (a retry cures it); `getOrder` fails for
 * ids starting with "missing" (a failure the data decides).
 */
function allTools(): Record<string, Tool> {
  let quoteCalls = 0;
  return {
    lookupCustomer: tool({
      description: "Look up a customer's plan by id.",
      inputSchema: z.object({ customerId: z.string() }),
      outputSchema: z.object({ customerId: z.string(), plan: z.string() }),
      execute: async ({ customerId }) => ({ customerId, plan: customerId.startsWith("E") ? "enterprise" : "pro" }),
    }),
    getOrder: tool({
      description: "An order's total, in cents. Fails for an unknown order.",
      inputSchema: z.object({ orderId: z.string() }),
      outputSchema: z.object({ orderId: z.string(), totalCents: z.number().int() }),
      execute: async ({ orderId }) => {
        if (orderId.startsWith("missing")) throw new Error(`no order ${orderId}`);
        return { orderId, totalCents: 100 * orderId.length };
      },
    }),
    getPrice: tool({
      description: "The unit price of a product, in cents.",
      inputSchema: z.object({ sku: z.string() }),
      outputSchema: z.object({ sku: z.string(), unitPriceCents: z.number().int() }),
      execute: async ({ sku }) => ({ sku, unitPriceCents: 250 + 10 * sku.length }),
    }),
    search: tool({
      description: "Search the web; returns hits with a title and a url.",
      inputSchema: z.object({ query: z.string() }),
      outputSchema: z.object({ hits: z.array(z.object({ title: z.string(), url: z.string() })) }),
      execute: async ({ query }) => ({ hits: [1, 2, 3].map((n) => ({ title: `${query} #${n}`, url: `https://example.test/${n}` })) }),
    }),
    publish: tool({
      description: "Publish a report; returns its url.",
      inputSchema: z.object({ report: z.string() }),
      outputSchema: z.object({ url: z.string() }),
      execute: async ({ report }) => ({ url: `https://reports.example.test/${report.length}` }),
    }),
    record: tool({
      description: "Records a labelled value and returns it.",
      inputSchema: z.object({ label: z.string(), value: z.unknown().optional() }),
      outputSchema: z.object({ label: z.string(), value: z.unknown() }),
      execute: async ({ label, value }) => ({ label, value: value ?? null }),
    }),
    bump: tool({
      description: "Adds one to n.",
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => ({ n: n + 1 }),
    }),
    flakyQuote: tool({
      description: "A stock quote, in cents. The quote service drops the first request of a session.",
      inputSchema: z.object({ symbol: z.string() }),
      outputSchema: z.object({ symbol: z.string(), priceCents: z.number().int() }),
      execute: async ({ symbol }) => {
        quoteCalls += 1;
        if (quoteCalls === 1) throw new Error("quote service unavailable, try again");
        return { symbol, priceCents: 1000 + symbol.length };
      },
    }),
    getWeather: tool({
      description: "Today's weather in a city.",
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), celsius: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]) }),
      execute: async ({ city }) => ({ city, celsius: 10 + (city.length % 15), conditions: city.length % 2 === 0 ? "sunny" : "rain" }),
    }),
    sendEmail: tool({
      description: "Send an email; returns the message id.",
      inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      outputSchema: z.object({ messageId: z.string(), to: z.string() }),
      execute: async ({ to, subject }) => ({ messageId: `msg-${to.length}-${subject.length}`, to }),
    }),
    getExchangeRate: tool({
      description: "1 unit of `from` is `rate` units of `to`.",
      inputSchema: z.object({ from: z.string(), to: z.string() }),
      outputSchema: z.object({ from: z.string(), to: z.string(), rate: z.number() }),
      execute: async ({ from, to }) => ({ from, to, rate: from === to ? 1 : 0.5 }),
    }),
  };
}

/** A fresh registry of the named corpus tools (fresh: `flakyQuote` fails again in every run). */
export function corpusTools(...names: string[]): () => ToolRegistry {
  return () => {
    const tools = allTools();
    return createToolRegistry(Object.fromEntries(names.map((name) => [name, tools[name]!])));
  };
}
