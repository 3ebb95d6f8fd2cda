import { expect } from "vitest";
import { z } from "zod";
import type { RunResult } from "../../../index.js";
import type { CorpusEntry } from "../corpus-entry.js";
import { corpusTools } from "../corpus-tools.js";
import { codeFile, document, fanIn, schemaOf } from "../plan-parts.js";

// Hand-written entries for the patterns: retry, fixer, routing, "end", loops and their first
// visit, parallel fan-out in every mode.

const writer = { id: "writer", description: "General-purpose writing model." };

function stepEvents(result: RunResult, type: string): { readonly stepPath?: string; readonly attempt?: number }[] {
  return result.events.filter((event) => event.type === type).map((event) => event.payload as { stepPath?: string; attempt?: number });
}

// --- code.run with a fixer -------------------------------------------------------------------
const invoiceInput = z.object({ invoiceId: z.string(), lines: z.array(z.object({ price: z.number(), quantity: z.number().int() })) });
const invoiceTotal = z.object({ invoiceId: z.string(), totalCents: z.number().int() });
const brokenTotal = "export async function run({ input }) {\n  const cents = input.lines.reduce((sum, line) => sum + Math.round(line.pricing.amount * 100) * line.quantity, 0);\n  return { invoiceId: input.invoiceId, totalCents: cents };\n}\n";
const fixedTotal = brokenTotal.replace("line.pricing.amount", "line.price");

// --- review loop parts ------------------------------------------------------------------------
const review = { type: "object", required: ["approved", "notes"], properties: { approved: { type: "boolean" }, notes: { type: "string" } }, additionalProperties: false };
const published = z.object({ url: z.string() });

// --- parallel parts ---------------------------------------------------------------------------
const order = z.object({ orderId: z.string(), totalCents: z.number().int() });
const orderSum = z.object({ totalCents: z.number().int(), missing: z.array(z.string()) });
const sumOrders =
  "export async function run({ input }) {\n  let totalCents = 0;\n  const missing = [];\n  for (const entry of input.entries) {\n    if (entry.status === 'completed') totalCents += entry.output.totalCents;\n    else missing.push(entry.itemKey);\n  }\n  return { totalCents, missing };\n}\n";

/** A fan-out over order ids with a getOrder call per item, summed by code.run; only the parallel's mode differs. */
function orderSumEntry(options: {
  readonly name: string;
  readonly covers: string;
  readonly fanInWith: { readonly failureMode: string; readonly fanIn: Record<string, unknown> };
  readonly orderIds: readonly string[];
  readonly expected: unknown;
}): CorpusEntry {
  const input = z.object({ orderIds: z.array(z.string()).min(1).max(10) });
  const id = `corpus.${options.name}`;
  return {
    name: options.name,
    origin: "hand-written",
    covers: options.covers,
    definition: { id, input, output: orderSum, models: [], tools: corpusTools("getOrder") },
    plan: document({
      name: id,
      input,
      output: orderSum,
      tools: ["getOrder"],
      steps: [
        {
          id: "orders",
          uses: "parallel",
          with: { items: "{{ input.orderIds }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, ...options.fanInWith },
          steps: [{ id: "fetch", uses: "tool.call", with: { tool: "getOrder", args: { orderId: "{{ item }}" } }, output: { mode: "object", schema: schemaOf(order) } }],
          output: fanIn(schemaOf(order)),
        },
        { id: "sum", uses: "code.run", needs: ["orders"], input: { entries: "{{ steps.orders.output }}" }, with: { entrypoint: "sum.js", files: { "sum.js": codeFile(sumOrders) }, sandbox: { network: "deny" } }, output: { mode: "object", schema: schemaOf(orderSum) } },
      ],
    }),
    input: { orderIds: options.orderIds },
    check: (result) => expect(result.output).toEqual(options.expected),
  };
}

export const patternEntries: readonly CorpusEntry[] = [
  {
    name: "code-run-fixer-repairs-a-throwing-step",
    origin: "hand-written",
    covers: "code.run that throws on its first attempt; onFailure.fixer (scripted try_fix) repairs it",
    definition: {
      id: "corpus.fixer",
      input: invoiceInput,
      output: invoiceTotal,
      models: [{ id: "fixer", description: "Repairs code.", script: [{ toolCalls: [{ toolName: "try_fix", args: { files: { "total.js": fixedTotal } } }] }, { text: "Fixed: lines carry price." }] }],
    },
    plan: document({
      name: "corpus.fixer",
      input: invoiceInput,
      output: invoiceTotal,
      models: ["fixer"],
      steps: [
        {
          id: "total",
          uses: "code.run",
          with: { entrypoint: "total.js", files: { "total.js": codeFile(brokenTotal) }, sandbox: { network: "deny" } },
          onFailure: { fixer: { model: "fixer", maxAttempts: 2, system: "Lines are { price, quantity }; return { invoiceId, totalCents } with integer cents." } },
          output: { mode: "object", schema: schemaOf(invoiceTotal) },
        },
      ],
    }),
    input: { invoiceId: "INV-7", lines: [{ price: 12.5, quantity: 2 }, { price: 3.99, quantity: 3 }] },
    check: (result) => {
      expect(result.output).toEqual({ invoiceId: "INV-7", totalCents: 3697 });
      expect(result.events.some((event) => event.type === "harness.session.completed" && JSON.stringify(event.payload).includes("fixedSource"))).toBe(true);
    },
  },
  {
    name: "retry-cures-a-flaky-tool",
    origin: "hand-written",
    covers: "retry (maxAttempts 2, backoff) on a tool.call whose first call fails",
    definition: { id: "corpus.retry", input: z.object({ symbol: z.string() }), output: z.object({ symbol: z.string(), priceCents: z.number().int() }), models: [], tools: corpusTools("flakyQuote") },
    plan: document({
      name: "corpus.retry",
      input: z.object({ symbol: z.string() }),
      output: z.object({ symbol: z.string(), priceCents: z.number().int() }),
      tools: ["flakyQuote"],
      steps: [
        {
          id: "quote",
          uses: "tool.call",
          retry: { maxAttempts: 2, backoff: { initialMs: 10, factor: 2, maxMs: 50 } },
          with: { tool: "flakyQuote", args: { symbol: "{{ input.symbol }}" } },
          output: { mode: "object", schema: schemaOf(z.object({ symbol: z.string(), priceCents: z.number().int() })) },
        },
      ],
    }),
    input: { symbol: "ACME" },
    check: (result) => {
      expect(result.output).toEqual({ symbol: "ACME", priceCents: 1004 });
      expect(stepEvents(result, "StepFailed").map((failed) => failed.attempt)).toEqual([1]);
    },
  },
  {
    name: "a-tool-that-fails-fails-the-run",
    origin: "hand-written",
    covers: "a data-driven failure (the order does not exist): step_failed, never a shape cause",
    definition: { id: "corpus.tool-fails", input: z.object({ orderId: z.string() }), output: order, models: [], tools: corpusTools("getOrder") },
    plan: document({
      name: "corpus.tool-fails",
      input: z.object({ orderId: z.string() }),
      output: order,
      tools: ["getOrder"],
      steps: [{ id: "order", uses: "tool.call", with: { tool: "getOrder", args: { orderId: "{{ input.orderId }}" } }, output: { mode: "object", schema: schemaOf(order) } }],
    }),
    input: { orderId: "missing-1" },
    expect: { causeCode: "step_failed", failedStepPath: "order" },
  },
  {
    name: "decision-routes-a-choice",
    origin: "hand-written",
    covers: "decision routing on a choice output to an ai.generate or a code.run target, each an end of the run",
    definition: { id: "corpus.route", input: z.object({ message: z.string() }), output: z.object({ queue: z.string(), reply: z.string() }), models: [writer] },
    plan: document({
      name: "corpus.route",
      input: z.object({ message: z.string() }),
      output: z.object({ queue: z.string(), reply: z.string() }),
      models: ["writer"],
      steps: [
        { id: "kind", uses: "ai.generate", with: { model: "writer", prompt: "Is this a refund request or a question? {{ input.message }}" }, output: { mode: "choice", values: ["refund", "question"] } },
        { id: "route", uses: "decision", needs: ["kind"], with: { cases: [{ when: "{{ steps.kind.output === 'refund' }}", to: "refund" }], default: "answer" } },
        {
          id: "refund",
          uses: "code.run",
          input: { message: "{{ input.message }}" },
          with: { entrypoint: "refund.js", files: { "refund.js": codeFile("export async function run({ input }) {\n  return { queue: 'refunds', reply: `Refund request received (${input.message.length} chars).` };\n}\n") }, sandbox: { network: "deny" } },
          output: { mode: "object", schema: schemaOf(z.object({ queue: z.string(), reply: z.string() })) },
        },
        { id: "answer", uses: "ai.generate", with: { model: "writer", prompt: "Answer this question briefly: {{ input.message }}" }, output: { mode: "object", schema: schemaOf(z.object({ queue: z.string(), reply: z.string() })) } },
      ],
    }),
    input: { message: "I want my money back." },
    check: (result) => expect(result.output).toEqual({ queue: "refunds", reply: "Refund request received (21 chars)." }),
  },
  {
    name: "decision-ends-the-run",
    origin: "hand-written",
    covers: 'decision with an "end" target: the run output is the last completed step (a tool.call), which binding requires to fit',
    definition: { id: "corpus.end", input: z.object({ customerId: z.string() }), output: z.object({ customerId: z.string(), plan: z.string() }), models: [writer], tools: corpusTools("lookupCustomer") },
    plan: document({
      name: "corpus.end",
      input: z.object({ customerId: z.string() }),
      output: z.object({ customerId: z.string(), plan: z.string() }),
      models: ["writer"],
      tools: ["lookupCustomer"],
      steps: [
        { id: "customer", uses: "tool.call", with: { tool: "lookupCustomer", args: { customerId: "{{ input.customerId }}" } }, output: { mode: "object", schema: schemaOf(z.object({ customerId: z.string(), plan: z.string() })) } },
        { id: "done", uses: "decision", needs: ["customer"], with: { cases: [{ when: "{{ steps.customer.output.plan === 'enterprise' }}", to: "end" }], default: "upsell" } },
        {
          id: "upsell",
          uses: "ai.generate",
          needs: ["customer"],
          with: { model: "writer", prompt: "Customer {{ input.customerId }} is on {{ steps.customer.output.plan }}; propose the plan to move to." },
          output: { mode: "object", schema: schemaOf(z.object({ customerId: z.string(), plan: z.string() })) },
        },
      ],
    }),
    input: { customerId: "E-1" },
    check: (result) => expect(result.output).toEqual({ customerId: "E-1", plan: "enterprise" }),
  },
  {
    name: "loop-first-visit-bare-lastOutput",
    origin: "hand-written",
    covers: "review loop whose head reads bare back-edge lastOutput (its own and the review's) in its first visit; loop exits on approved",
    definition: { id: "corpus.loop-bare", input: z.object({ topic: z.string() }), output: published, models: [writer], tools: corpusTools("publish") },
    plan: document({
      name: "corpus.loop-bare",
      input: z.object({ topic: z.string() }),
      output: published,
      models: ["writer"],
      tools: ["publish"],
      steps: [
        { id: "draft", uses: "ai.generate", maxVisits: 3, with: { model: "writer", prompt: "Write about {{ input.topic }}. Your last draft: {{ steps.draft.lastOutput }}. The review of it: {{ steps.review.lastOutput }}" }, output: { mode: "text" } },
        { id: "review", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "writer", prompt: "Review: {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: review } },
        { id: "decide", uses: "decision", needs: ["review"], maxVisits: 3, with: { cases: [{ when: "{{ steps.review.lastOutput.approved === false && len(steps.draft.allVisits) < 3 }}", to: "draft" }], default: "publish" } },
        { id: "publish", uses: "tool.call", needs: ["draft"], with: { tool: "publish", args: { report: "{{ steps.draft.lastOutput }}" } }, output: { mode: "object", schema: schemaOf(published) } },
      ],
    }),
    input: { topic: "tides" },
    check: (result) => {
      expect(result.output).toMatchObject({ url: expect.stringMatching(/^https:\/\/reports\.example\.test\/\d+$/) });
      // The first prompt carried the two back-edge reads as null.
      const started = result.events.filter((event) => event.type === "harness.model.called").map((event) => JSON.stringify(event.payload));
      expect(started.some((payload) => payload.includes("Your last draft: null. The review of it: null"))).toBe(true);
    },
  },
  {
    name: "loop-iterates-with-coalesce-and-len",
    origin: "hand-written",
    covers: "a loop that runs three visits: coalesce(lastOutput.field) and len(allVisits) back-edge reads in the first visit, allVisits handed to code.run (.ts)",
    definition: { id: "corpus.loop-three", input: z.object({ topic: z.string() }), output: z.object({ report: z.string(), rounds: z.number().int(), notes: z.number().int() }), models: [writer] },
    plan: document({
      name: "corpus.loop-three",
      input: z.object({ topic: z.string() }),
      output: z.object({ report: z.string(), rounds: z.number().int(), notes: z.number().int() }),
      models: ["writer"],
      steps: [
        {
          id: "draft",
          uses: "ai.generate",
          maxVisits: 3,
          with: { model: "writer", prompt: "Draft {{ len(steps.review.allVisits) }} on {{ input.topic }}. Address: {{ coalesce(steps.review.lastOutput.notes, 'nothing yet') }}" },
          output: { mode: "text" },
        },
        { id: "review", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "writer", prompt: "Review: {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: review } },
        { id: "again", uses: "decision", needs: ["review"], maxVisits: 3, with: { cases: [{ when: "{{ len(steps.draft.allVisits) < 3 }}", to: "draft" }], default: "finalize" } },
        {
          id: "finalize",
          uses: "code.run",
          needs: ["draft", "review"],
          input: { drafts: "{{ steps.draft.allVisits }}", reviews: "{{ steps.review.allVisits }}", last: "{{ steps.draft.lastOutput }}" },
          with: {
            entrypoint: "finalize.ts",
            files: { "finalize.ts": codeFile("export async function run({ input }: { input: { drafts: string[]; reviews: { notes: string }[]; last: string } }) {\n  return { report: input.last, rounds: input.drafts.length, notes: input.reviews.length };\n}\n") },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ report: z.string(), rounds: z.number().int(), notes: z.number().int() })) },
        },
      ],
    }),
    input: { topic: "tides" },
    check: (result) => {
      expect(result.output).toMatchObject({ rounds: 3, notes: 3 });
      expect(stepEvents(result, "StepCompleted").map((completed) => completed.stepPath)).toEqual(expect.arrayContaining(["draft.visit[0]", "draft.visit[2]", "review.visit[2]"]));
    },
  },
  {
    name: "loop-ends-at-end",
    origin: "hand-written",
    covers: 'a loop whose decision routes to "end": the run output is the last review',
    definition: { id: "corpus.loop-end", input: z.object({ topic: z.string() }), output: review, models: [writer] },
    plan: document({
      name: "corpus.loop-end",
      input: z.object({ topic: z.string() }),
      output: review,
      models: ["writer"],
      steps: [
        { id: "draft", uses: "ai.generate", maxVisits: 2, with: { model: "writer", prompt: "Write on {{ input.topic }}; notes: {{ coalesce(steps.review.lastOutput.notes, 'none') }}" }, output: { mode: "text" } },
        { id: "review", uses: "ai.generate", needs: ["draft"], maxVisits: 2, with: { model: "writer", prompt: "Review: {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: review } },
        { id: "decide", uses: "decision", needs: ["review"], maxVisits: 2, with: { cases: [{ when: "{{ steps.review.lastOutput.approved }}", to: "end" }, { when: "{{ len(steps.draft.allVisits) < 2 }}", to: "draft" }], default: "end" } },
      ],
    }),
    input: { topic: "tides" },
    check: (result) => expect(result.output).toEqual({ approved: true, notes: "sample notes" }),
  },
  {
    name: "loop-counter-whole-template-lastOutput",
    origin: "hand-written",
    covers: "a code.run loop reading its own bare lastOutput as a whole template (null in the first visit); a tool downstream of the loop head runs again every visit",
    definition: { id: "corpus.loop-counter", input: z.object({ until: z.number().int() }), output: z.object({ n: z.number(), visits: z.number().int() }), models: [], tools: corpusTools("bump") },
    plan: document({
      name: "corpus.loop-counter",
      input: z.object({ until: z.number().int() }),
      output: z.object({ n: z.number(), visits: z.number().int() }),
      tools: ["bump"],
      steps: [
        {
          id: "count",
          uses: "code.run",
          maxVisits: 5,
          input: { previous: "{{ steps.count.lastOutput }}" },
          with: { entrypoint: "count.js", files: { "count.js": codeFile("export async function run({ input }) {\n  return { n: input.previous === null ? 0 : input.previous.n + 1 };\n}\n") }, sandbox: { network: "deny" } },
          output: { mode: "object", schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
        },
        { id: "bumped", uses: "tool.call", needs: ["count"], maxVisits: 5, with: { tool: "bump", args: { n: "{{ steps.count.lastOutput.n }}" } }, output: { mode: "object", schema: schemaOf(z.object({ n: z.number() })) } },
        { id: "more", uses: "decision", needs: ["count"], maxVisits: 5, with: { cases: [{ when: "{{ steps.count.lastOutput.n < input.until }}", to: "count" }], default: "report" } },
        {
          id: "report",
          uses: "code.run",
          needs: ["bumped", "count"],
          input: { last: "{{ steps.bumped.lastOutput }}", visits: "{{ len(steps.count.allVisits) }}" },
          with: { entrypoint: "report.js", files: { "report.js": codeFile("export async function run({ input }) {\n  return { n: input.last.n, visits: input.visits };\n}\n") }, sandbox: { network: "deny" } },
          output: { mode: "object", schema: schemaOf(z.object({ n: z.number(), visits: z.number().int() })) },
        },
      ],
    }),
    input: { until: 2 },
    check: (result) => expect(result.output).toMatchObject({ visits: 3 }),
  },
  orderSumEntry({
    name: "parallel-fail-fast-tool-per-item",
    covers: "parallel fail_fast, fanIn order input, outputStep, a tool.call per item with args from item; the fan-in summed by code.run",
    fanInWith: { failureMode: "fail_fast", fanIn: { order: "input", output: "array", outputStep: "fetch" } },
    orderIds: ["A-1", "B-22", "C-333"],
    expected: { totalCents: 300 + 400 + 500, missing: [] },
  }),
  orderSumEntry({
    name: "parallel-all-settled-with-a-failed-branch",
    covers: "parallel all_settled, fanIn order itemKey: a branch whose tool fails becomes a failed entry and the step completes",
    fanInWith: { failureMode: "all_settled", fanIn: { order: "itemKey", output: "array" } },
    orderIds: ["Z-9", "missing-3", "A-1"],
    expected: { totalCents: 600, missing: ["missing-3"] },
  }),
  {
    name: "parallel-ai-generate-per-item",
    origin: "hand-written",
    covers: "parallel over objects (itemKey item.id), an ai.generate per item quoting item fields, fan-in quoted whole in a prompt",
    definition: {
      id: "corpus.par-ai",
      input: z.object({ reviews: z.array(z.object({ id: z.string(), text: z.string() })).min(1).max(20) }),
      output: z.object({ headline: z.string(), positive: z.number().int() }),
      models: [writer],
    },
    plan: document({
      name: "corpus.par-ai",
      input: z.object({ reviews: z.array(z.object({ id: z.string(), text: z.string() })).min(1).max(20) }),
      output: z.object({ headline: z.string(), positive: z.number().int() }),
      models: ["writer"],
      steps: [
        {
          id: "rate",
          uses: "parallel",
          with: { items: "{{ input.reviews }}", itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" }, maxBranches: 20, maxConcurrency: 4, failureMode: "fail_fast", fanIn: { order: "itemKey", output: "array" } },
          steps: [
            {
              id: "judge",
              uses: "ai.generate",
              with: { model: "writer", prompt: "Review {{ item.id }}: {{ item.text }}\nIs it positive, and why?" },
              output: { mode: "object", schema: { type: "object", required: ["positive", "reason"], properties: { positive: { type: "boolean" }, reason: { type: "string" } } } },
            },
          ],
          output: fanIn({ type: "object", required: ["positive", "reason"], properties: { positive: { type: "boolean" }, reason: { type: "string" } } }),
        },
        {
          id: "headline",
          uses: "ai.generate",
          needs: ["rate"],
          with: { model: "writer", prompt: "Write a headline from these judgements: {{ json(steps.rate.output) }}" },
          output: { mode: "object", schema: schemaOf(z.object({ headline: z.string(), positive: z.number().int() })) },
        },
      ],
    }),
    input: { reviews: [{ id: "r2", text: "Great tool." }, { id: "r1", text: "Slow docs." }] },
    check: (result) => {
      expect(result.output).toEqual({ headline: "sample headline", positive: 1 });
      const branchPaths = stepEvents(result, "StepCompleted").map((completed) => completed.stepPath).filter((path) => path?.startsWith("rate["));
      expect(branchPaths.sort()).toEqual(["rate[r1].judge", "rate[r2].judge"]);
    },
  },
  {
    name: "parallel-body-chain-with-output-step",
    origin: "hand-written",
    covers: "parallel body of two steps (tool.call then ai.generate reading it); fanIn.outputStep picks the first; outer step read from the body",
    definition: {
      id: "corpus.par-chain",
      input: z.object({ cities: z.array(z.string()).min(1).max(5), audience: z.string() }),
      output: z.object({ warmest: z.string(), cities: z.number().int() }),
      models: [writer],
      tools: corpusTools("getWeather", "lookupCustomer"),
    },
    plan: document({
      name: "corpus.par-chain",
      input: z.object({ cities: z.array(z.string()).min(1).max(5), audience: z.string() }),
      output: z.object({ warmest: z.string(), cities: z.number().int() }),
      models: ["writer"],
      tools: ["getWeather", "lookupCustomer"],
      steps: [
        { id: "reader", uses: "tool.call", with: { tool: "lookupCustomer", args: { customerId: "{{ input.audience }}" } }, output: { mode: "object", schema: schemaOf(z.object({ customerId: z.string(), plan: z.string() })) } },
        {
          id: "forecasts",
          uses: "parallel",
          needs: ["reader"],
          with: { items: "{{ input.cities }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 5, failureMode: "fail_fast", fanIn: { order: "input", output: "array", outputStep: "weather" } },
          steps: [
            { id: "weather", uses: "tool.call", with: { tool: "getWeather", args: { city: "{{ item }}" } }, output: { mode: "object", schema: schemaOf(z.object({ city: z.string(), celsius: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]) })) } },
            { id: "blurb", uses: "ai.generate", needs: ["weather"], with: { model: "writer", prompt: "For a {{ steps.reader.output.plan }} reader: {{ item }} is {{ steps.weather.output.conditions }} at {{ steps.weather.output.celsius }} C." }, output: { mode: "text" } },
          ],
          output: fanIn(schemaOf(z.object({ city: z.string(), celsius: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]) }))),
        },
        {
          id: "warmest",
          uses: "code.run",
          needs: ["forecasts"],
          input: { entries: "{{ steps.forecasts.output }}" },
          with: {
            entrypoint: "warmest.js",
            files: { "warmest.js": codeFile("export async function run({ input }) {\n  const outputs = input.entries.map((entry) => entry.output);\n  outputs.sort((a, b) => b.celsius - a.celsius);\n  return { warmest: outputs[0].city, cities: outputs.length };\n}\n") },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ warmest: z.string(), cities: z.number().int() })) },
        },
      ],
    }),
    input: { cities: ["Oslo", "Lisbon", "Kyiv"], audience: "C-1" },
    // celsius = 10 + length % 15: Oslo 14, Lisbon 16, Kyiv 14.
    check: (result) => expect(result.output).toEqual({ warmest: "Lisbon", cities: 3 }),
  },
  {
    name: "parallel-over-model-output-with-code-per-item",
    origin: "hand-written",
    covers: "parallel whose items are a model's array output (itemKey item.sku), a code.run (.ts) per item calling a tool from code",
    definition: {
      id: "corpus.par-model-items",
      input: z.object({ request: z.string() }),
      output: z.object({ summary: z.string() }),
      models: [writer],
      tools: corpusTools("getPrice"),
    },
    plan: document({
      name: "corpus.par-model-items",
      input: z.object({ request: z.string() }),
      output: z.object({ summary: z.string() }),
      models: ["writer"],
      tools: ["getPrice"],
      steps: [
        {
          id: "basket",
          uses: "ai.generate",
          with: { model: "writer", prompt: "Turn this request into basket lines: {{ input.request }}" },
          output: { mode: "array", schema: { type: "array", minItems: 1, maxItems: 8, items: { type: "object", required: ["sku", "qty"], properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1, maximum: 9 } } } } },
        },
        {
          id: "lines",
          uses: "parallel",
          needs: ["basket"],
          with: { items: "{{ steps.basket.output }}", itemKey: "{{ item.sku }}", cardinality: { kind: "matches_items" }, maxBranches: 8, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
          steps: [
            {
              id: "line",
              uses: "code.run",
              with: {
                entrypoint: "line.ts",
                files: { "line.ts": codeFile("export async function run({ input, tools }: { input: { sku: string; qty: number }; tools: any }) {\n  const price = await tools.getPrice({ sku: input.sku });\n  return { sku: input.sku, cents: price.unitPriceCents * input.qty };\n}\n") },
                sandbox: { network: "deny" },
              },
              output: { mode: "object", schema: { type: "object", required: ["sku", "cents"], properties: { sku: { type: "string" }, cents: { type: "integer" } } } },
            },
          ],
          output: fanIn({ type: "object", required: ["sku", "cents"], properties: { sku: { type: "string" }, cents: { type: "integer" } } }),
        },
        { id: "summary", uses: "ai.generate", needs: ["lines"], with: { model: "writer", prompt: "Summarize the basket: {{ json(steps.lines.output) }}" }, output: { mode: "object", schema: schemaOf(z.object({ summary: z.string() })) } },
      ],
    }),
    input: { request: "two keyboards" },
    check: (result) => {
      expect(result.output).toEqual({ summary: "sample summary" });
      expect(result.events.some((event) => event.type === "harness.tool_call.succeeded" && (event.payload as { caller?: string }).caller === "code")).toBe(true);
    },
  },
  {
    name: "parallel-decision-ends-some-branches",
    origin: "hand-written",
    covers: 'a decision inside a parallel body that ends a branch ("end") or continues to an ai.generate; entry outputs of two shapes',
    definition: { id: "corpus.par-decision", input: z.object({ cities: z.array(z.string()).min(1).max(4) }), output: z.object({ advice: z.array(z.string()) }), models: [writer], tools: corpusTools("getWeather") },
    plan: document({
      name: "corpus.par-decision",
      input: z.object({ cities: z.array(z.string()).min(1).max(4) }),
      output: z.object({ advice: z.array(z.string()) }),
      models: ["writer"],
      tools: ["getWeather"],
      steps: [
        {
          id: "trips",
          uses: "parallel",
          with: { items: "{{ input.cities }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 4, maxConcurrency: 2, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
          steps: [
            { id: "weather", uses: "tool.call", with: { tool: "getWeather", args: { city: "{{ item }}" } }, output: { mode: "object", schema: schemaOf(z.object({ city: z.string(), celsius: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]) })) } },
            { id: "go", uses: "decision", needs: ["weather"], with: { cases: [{ when: "{{ steps.weather.output.conditions === 'rain' }}", to: "end" }], default: "advise" } },
            { id: "advise", uses: "ai.generate", needs: ["weather"], with: { model: "writer", prompt: "Suggest an outdoor plan in {{ item }} ({{ steps.weather.output.celsius }} C)." }, output: { mode: "text" } },
          ],
          output: fanIn(true),
        },
        {
          id: "collect",
          uses: "code.run",
          needs: ["trips"],
          input: { entries: "{{ steps.trips.output }}" },
          with: {
            entrypoint: "collect.js",
            files: { "collect.js": codeFile("export async function run({ input }) {\n  return { advice: input.entries.map((entry) => typeof entry.output === 'string' ? entry.output : `stay in: ${entry.output.city}`) };\n}\n") },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ advice: z.array(z.string()) })) },
        },
      ],
    }),
    // Oslo (4 letters) is sunny, Paris (5) rainy.
    input: { cities: ["Oslo", "Paris"] },
    check: (result) => expect((result.output as { advice: string[] }).advice).toEqual([expect.stringMatching(/^answer: Suggest an outdoor plan in Oslo/), "stay in: Paris"]),
  },
  {
    name: "parallel-retry-reruns-the-group",
    origin: "hand-written",
    covers: "retry on a fail_fast parallel step: the first branch's flaky tool fails, the group runs again",
    definition: { id: "corpus.par-retry", input: z.object({ symbols: z.array(z.string()).min(1).max(5) }), output: z.object({ quotes: z.number().int() }), models: [], tools: corpusTools("flakyQuote") },
    plan: document({
      name: "corpus.par-retry",
      input: z.object({ symbols: z.array(z.string()).min(1).max(5) }),
      output: z.object({ quotes: z.number().int() }),
      tools: ["flakyQuote"],
      steps: [
        {
          id: "quotes",
          uses: "parallel",
          retry: { maxAttempts: 2 },
          with: { items: "{{ input.symbols }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 1, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
          steps: [{ id: "quote", uses: "tool.call", with: { tool: "flakyQuote", args: { symbol: "{{ item }}" } }, output: { mode: "object", schema: schemaOf(z.object({ symbol: z.string(), priceCents: z.number().int() })) } }],
          output: fanIn(schemaOf(z.object({ symbol: z.string(), priceCents: z.number().int() }))),
        },
        { id: "count", uses: "code.run", needs: ["quotes"], input: { entries: "{{ steps.quotes.output }}" }, with: { entrypoint: "count.js", files: { "count.js": codeFile("export async function run({ input }) {\n  return { quotes: input.entries.length };\n}\n") }, sandbox: { network: "deny" } }, output: { mode: "object", schema: schemaOf(z.object({ quotes: z.number().int() })) } },
      ],
    }),
    input: { symbols: ["ACME", "INIT"] },
    check: (result) => expect(result.output).toEqual({ quotes: 2 }),
  },
];
