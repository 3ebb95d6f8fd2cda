import { expect } from "vitest";
import { z } from "zod";
import type { CorpusEntry } from "../corpus-entry.js";
import { corpusTools } from "../corpus-tools.js";
import { document, fanIn, schemaOf } from "../plan-parts.js";

// Planner submissions with only what a model must write: the compiler completes apiVersion, kind,
// metadata, both schemas, file hashes, permissions and needs. Each is submitted once by a scripted
// planner and must be accepted at once.

const writer = { id: "writer", description: "General-purpose writing model." };
const customer = z.object({ customerId: z.string(), plan: z.string() });

export const stepsOnlyEntries: readonly CorpusEntry[] = [
  {
    name: "steps-only tool-then-model",
    origin: "hand-written",
    covers: "a submission of steps alone (no needs on the first step, no permissions, no schemas): tool.call then ai.generate",
    definition: { id: "corpus.steps-only-basic", input: z.object({ customerId: z.string(), question: z.string() }), output: z.object({ answer: z.string() }), models: [writer], tools: corpusTools("lookupCustomer") },
    plan: {
      steps: [
        { id: "customer", uses: "tool.call", with: { tool: "lookupCustomer", args: { customerId: "{{ input.customerId }}" } }, output: { mode: "object", schema: schemaOf(customer) } },
        { id: "answer", uses: "ai.generate", needs: ["customer"], with: { model: "writer", prompt: "A {{ steps.customer.output.plan }} customer asks: {{ input.question }}" }, output: { mode: "object", schema: schemaOf(z.object({ answer: z.string() })) } },
      ],
    },
    input: { customerId: "C-1", question: "Can I add a seat?" },
    check: (result) => expect(result.output).toEqual({ answer: "sample answer" }),
  },
  {
    name: "steps-only code-naming-tools",
    origin: "hand-written",
    covers: "a submission whose code.run files are bare strings (hash computed) and whose code names tools as tools.x and tools[\"x\"] (permissions derived from the code)",
    definition: {
      id: "corpus.steps-only-code",
      input: z.object({ orderId: z.string(), sku: z.string() }),
      output: z.object({ orderCents: z.number().int(), unitCents: z.number().int() }),
      models: [],
      tools: corpusTools("getOrder", "getPrice"),
    },
    plan: {
      steps: [
        {
          id: "both",
          uses: "code.run",
          with: {
            entrypoint: "main.js",
            files: {
              "main.js": 'import { cents } from "./lib/read.js";\n\nexport async function run({ input, tools }) {\n  const [order, price] = await Promise.all([tools["getOrder"]({ orderId: input.orderId }), tools.getPrice({ sku: input.sku })]);\n  return { orderCents: cents(order.totalCents), unitCents: cents(price.unitPriceCents) };\n}\n',
              "lib/read.js": "export function cents(value) {\n  return Math.round(value);\n}\n",
            },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ orderCents: z.number().int(), unitCents: z.number().int() })) },
        },
      ],
    },
    input: { orderId: "O-12", sku: "XY" },
    check: (result) => expect(result.output).toEqual({ orderCents: 400, unitCents: 270 }),
  },
  {
    name: "steps-only parallel-with-fixer-and-numeric-keys",
    origin: "hand-written",
    covers: "a submission with a parallel over integers (itemKey {{ item }}, fan-in itemKey typed string) whose body is a code.run with a fixer (the fixer model permitted from the step)",
    definition: { id: "corpus.steps-only-parallel", input: z.object({ amounts: z.array(z.number().int()).min(1).max(5) }), output: z.object({ total: z.number().int() }), models: [{ id: "fixer", description: "Repairs code." }] },
    plan: {
      steps: [
        {
          id: "double",
          uses: "parallel",
          with: { items: "{{ input.amounts }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "itemKey", output: "array" } },
          steps: [
            {
              id: "twice",
              uses: "code.run",
              input: { n: "{{ item }}" },
              with: { entrypoint: "twice.ts", files: { "twice.ts": "export async function run({ input }: { input: { n: number } }) {\n  return { n: input.n * 2 };\n}\n" }, sandbox: { network: "deny" } },
              onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Return { n: 2 × input.n }." } },
              output: { mode: "object", schema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
            },
          ],
          output: fanIn({ type: "object", required: ["n"], properties: { n: { type: "integer" } } }),
        },
        {
          id: "sum",
          uses: "code.run",
          needs: ["double"],
          input: { entries: "{{ steps.double.output }}" },
          with: { entrypoint: "sum.js", files: { "sum.js": "export async function run({ input }) {\n  return { total: input.entries.reduce((sum, entry) => sum + entry.output.n, 0) };\n}\n" }, sandbox: { network: "deny" } },
          output: { mode: "object", schema: schemaOf(z.object({ total: z.number().int() })) },
        },
      ],
    },
    input: { amounts: [3, 10, 2] },
    check: (result) => {
      expect(result.output).toEqual({ total: 30 });
      const keys = result.events.filter((event) => event.type === "ParallelGroupStarted").map((event) => (event.payload as { itemKeys: unknown[] }).itemKeys);
      expect(keys).toEqual([["3", "10", "2"]]);
    },
  },
  {
    name: "complete-document-through-the-planner",
    origin: "hand-written",
    covers: "a complete document submitted by the planner: the values it gives (schemas, permissions, hashes) are checked as written and accepted",
    delivery: "planner",
    definition: { id: "corpus.planner-full", input: z.object({ customerId: z.string() }), output: customer, models: [], tools: corpusTools("lookupCustomer") },
    plan: document({
      name: "corpus.planner-full",
      input: z.object({ customerId: z.string() }),
      output: customer,
      tools: ["lookupCustomer"],
      steps: [{ id: "customer", uses: "tool.call", needs: [], with: { tool: "lookupCustomer", args: { customerId: "{{ input.customerId }}" } }, output: { mode: "object", schema: schemaOf(customer) } }],
    }),
    input: { customerId: "E-5" },
    check: (result) => expect(result.output).toEqual({ customerId: "E-5", plan: "enterprise" }),
  },
];
