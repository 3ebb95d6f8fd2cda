import { expect } from "vitest";
import { z } from "zod";
import type { CorpusEntry } from "../corpus-entry.js";
import { corpusTools } from "../corpus-tools.js";
import { codeFile, document, schemaOf } from "../plan-parts.js";

// Hand-written entries, one per step type and output mode, and the ways a step gets its input.

const writer = { id: "writer", description: "General-purpose writing model." };

const ticketInput = z.object({ ticketId: z.string(), transcript: z.string() });
const triage = z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) });

const ideaList = { type: "array", minItems: 1, maxItems: 5, items: { type: "object", required: ["title", "votes"], properties: { title: { type: "string" }, votes: { type: "integer", minimum: 0, maximum: 5 } }, additionalProperties: false } };
const bestIdea = z.object({ best: z.string(), count: z.number().int() });

const cityInput = z.object({ request: z.string() });
const weather = z.object({ city: z.string(), celsius: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]) });

export const stepTypeEntries: readonly CorpusEntry[] = [
  {
    name: "ai-generate-text",
    origin: "hand-written",
    covers: "ai.generate with a text output as the run output (workflow output { mode: text })",
    definition: { id: "corpus.ai-text", input: z.object({ topic: z.string() }), output: { mode: "text" }, models: [writer] },
    plan: document({
      name: "corpus.ai-text",
      input: z.object({ topic: z.string() }),
      output: { type: "string" },
      models: ["writer"],
      steps: [{ id: "haiku", uses: "ai.generate", with: { model: "writer", prompt: "Write a haiku about {{ input.topic }}." }, output: { mode: "text" } }],
    }),
    input: { topic: "durable workflows" },
    check: (result) => expect(result.output).toBe("answer: Write a haiku about durable workflows."),
  },
  {
    name: "ai-generate-object-with-input-and-system",
    origin: "hand-written",
    covers: "ai.generate object output; a templated system prompt; a declared step input (appended to the prompt)",
    definition: { id: "corpus.ai-object", input: ticketInput, output: triage, models: [writer] },
    plan: document({
      name: "corpus.ai-object",
      input: ticketInput,
      output: triage,
      models: ["writer"],
      steps: [
        {
          id: "triage",
          uses: "ai.generate",
          input: { transcript: "{{ input.transcript }}" },
          with: { model: "writer", system: "You triage support ticket {{ input.ticketId }}.", prompt: "Summarize the transcript below and rate its severity." },
          output: { mode: "object", schema: schemaOf(triage) },
        },
      ],
    }),
    input: { ticketId: "T-9", transcript: "The app crashes at login." },
    check: (result) => expect(result.output).toEqual({ summary: "sample summary", severity: "low" }),
  },
  {
    name: "ai-generate-array-into-code",
    origin: "hand-written",
    covers: "ai.generate array output; code.run (.js) whose input comes from a previous step",
    definition: { id: "corpus.ai-array", input: z.object({ product: z.string() }), output: bestIdea, models: [writer] },
    plan: document({
      name: "corpus.ai-array",
      input: z.object({ product: z.string() }),
      output: bestIdea,
      models: ["writer"],
      steps: [
        { id: "ideas", uses: "ai.generate", with: { model: "writer", prompt: "List up to five names for {{ input.product }}, each with a vote from 0 to 5." }, output: { mode: "array", schema: ideaList } },
        {
          id: "pick",
          uses: "code.run",
          needs: ["ideas"],
          input: { ideas: "{{ steps.ideas.output }}" },
          with: {
            entrypoint: "pick.js",
            files: { "pick.js": codeFile("export async function run({ input }) {\n  const sorted = [...input.ideas].sort((a, b) => b.votes - a.votes);\n  return { best: sorted[0].title, count: input.ideas.length };\n}\n") },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(bestIdea) },
        },
      ],
    }),
    input: { product: "a workflow SDK" },
    check: (result) => expect(result.output).toEqual({ best: "sample title", count: 1 }),
  },
  {
    name: "ai-generate-choice",
    origin: "hand-written",
    covers: "ai.generate choice output as the run output (workflow output { mode: choice })",
    definition: { id: "corpus.ai-choice", input: z.object({ message: z.string() }), output: { mode: "choice", values: ["positive", "neutral", "negative"] }, models: [writer] },
    plan: document({
      name: "corpus.ai-choice",
      input: z.object({ message: z.string() }),
      output: { type: "string", enum: ["positive", "neutral", "negative"] },
      models: ["writer"],
      steps: [{ id: "sentiment", uses: "ai.generate", with: { model: "writer", prompt: "What is the sentiment of: {{ input.message }}" }, output: { mode: "choice", values: ["positive", "neutral", "negative"] } }],
    }),
    input: { message: "Thanks, it works now!" },
    check: (result) => expect(result.output).toBe("positive"),
  },
  {
    name: "ai-generate-json-schema-into-tool",
    origin: "hand-written",
    covers: "ai.generate json output with a schema, read by a tool.call's args",
    definition: { id: "corpus.ai-json", input: cityInput, output: weather, models: [writer], tools: corpusTools("getWeather") },
    plan: document({
      name: "corpus.ai-json",
      input: cityInput,
      output: weather,
      models: ["writer"],
      tools: ["getWeather"],
      steps: [
        {
          id: "extract",
          uses: "ai.generate",
          with: { model: "writer", prompt: "Which city does this request ask about? {{ input.request }}" },
          output: { mode: "json", schema: { type: "object", required: ["city"], properties: { city: { type: "string", minLength: 1 } } } },
        },
        { id: "forecast", uses: "tool.call", needs: ["extract"], with: { tool: "getWeather", args: { city: "{{ steps.extract.output.city }}" } }, output: { mode: "object", schema: schemaOf(weather) } },
      ],
    }),
    input: { request: "Do I need an umbrella in Oslo today?" },
    check: (result) => expect(result.output).toMatchObject({ city: "sample city" }),
  },
  {
    name: "ai-generate-json-without-schema",
    origin: "hand-written",
    covers: "ai.generate json output without a schema as the run output (workflow output { mode: json })",
    definition: { id: "corpus.ai-json-free", input: z.object({ question: z.string() }), output: { mode: "json" }, models: [writer] },
    plan: document({
      name: "corpus.ai-json-free",
      input: z.object({ question: z.string() }),
      output: true,
      models: ["writer"],
      steps: [{ id: "answer", uses: "ai.generate", with: { model: "writer", prompt: "Answer as JSON: {{ input.question }}" }, output: { mode: "json" } }],
    }),
    input: { question: "What are the primary colours?" },
    check: (result) => expect(result.output).toEqual({}),
  },
  {
    name: "tool-call-args-from-input",
    origin: "hand-written",
    covers: "tool.call with args from the workflow input, the tool's output schema copied",
    definition: { id: "corpus.tool-input", input: z.object({ customerId: z.string() }), output: z.object({ customerId: z.string(), plan: z.string() }), models: [], tools: corpusTools("lookupCustomer") },
    plan: document({
      name: "corpus.tool-input",
      input: z.object({ customerId: z.string() }),
      output: z.object({ customerId: z.string(), plan: z.string() }),
      tools: ["lookupCustomer"],
      steps: [{ id: "customer", uses: "tool.call", with: { tool: "lookupCustomer", args: { customerId: "{{ input.customerId }}" } }, output: { mode: "object", schema: schemaOf(z.object({ customerId: z.string(), plan: z.string() })) } }],
    }),
    input: { customerId: "C-42" },
    check: (result) => expect(result.output).toEqual({ customerId: "C-42", plan: "pro" }),
  },
  {
    name: "tool-call-args-from-steps",
    origin: "hand-written",
    covers: "tool.call whose args mix the input, a tool output and a text model output (interpolated and whole templates)",
    definition: {
      id: "corpus.tool-steps",
      input: z.object({ customerId: z.string(), email: z.string() }),
      output: z.object({ messageId: z.string(), to: z.string() }),
      models: [writer],
      tools: corpusTools("lookupCustomer", "sendEmail"),
    },
    plan: document({
      name: "corpus.tool-steps",
      input: z.object({ customerId: z.string(), email: z.string() }),
      output: z.object({ messageId: z.string(), to: z.string() }),
      models: ["writer"],
      tools: ["lookupCustomer", "sendEmail"],
      steps: [
        { id: "customer", uses: "tool.call", with: { tool: "lookupCustomer", args: { customerId: "{{ input.customerId }}" } }, output: { mode: "object", schema: schemaOf(z.object({ customerId: z.string(), plan: z.string() })) } },
        { id: "note", uses: "ai.generate", needs: ["customer"], with: { model: "writer", prompt: "Write two friendly sentences thanking a {{ steps.customer.output.plan }} customer." }, output: { mode: "text" } },
        {
          id: "send",
          uses: "tool.call",
          needs: ["customer", "note"],
          with: { tool: "sendEmail", args: { to: "{{ input.email }}", subject: "Your {{ steps.customer.output.plan }} plan", body: "{{ steps.note.output }}" } },
          output: { mode: "object", schema: schemaOf(z.object({ messageId: z.string(), to: z.string() })) },
        },
      ],
    }),
    input: { customerId: "C-7", email: "ada@example.test" },
    check: (result) => expect(result.output).toEqual({ messageId: "msg-16-13", to: "ada@example.test" }),
  },
  {
    name: "tool-call-step-input-field",
    origin: "hand-written",
    covers: "tool.call whose arguments come from the step's `input` field (no with.args)",
    definition: { id: "corpus.tool-input-field", input: z.object({ from: z.string(), to: z.string() }), output: z.object({ from: z.string(), to: z.string(), rate: z.number() }), models: [], tools: corpusTools("getExchangeRate") },
    plan: document({
      name: "corpus.tool-input-field",
      input: z.object({ from: z.string(), to: z.string() }),
      output: z.object({ from: z.string(), to: z.string(), rate: z.number() }),
      tools: ["getExchangeRate"],
      steps: [{ id: "rate", uses: "tool.call", input: { from: "{{ input.from }}", to: "{{ input.to }}" }, with: { tool: "getExchangeRate" }, output: { mode: "object", schema: schemaOf(z.object({ from: z.string(), to: z.string(), rate: z.number() })) } }],
    }),
    input: { from: "USD", to: "EUR" },
    check: (result) => expect(result.output).toEqual({ from: "USD", to: "EUR", rate: 0.5 }),
  },
  {
    name: "tool-call-json-true-into-code",
    origin: "hand-written",
    covers: "tool.call with output { mode: json, schema: true } handed whole to code.run (.js)",
    definition: { id: "corpus.tool-json", input: z.object({ query: z.string() }), output: z.object({ count: z.number().int(), first: z.string() }), models: [], tools: corpusTools("search") },
    plan: document({
      name: "corpus.tool-json",
      input: z.object({ query: z.string() }),
      output: z.object({ count: z.number().int(), first: z.string() }),
      tools: ["search"],
      steps: [
        { id: "hits", uses: "tool.call", with: { tool: "search", args: { query: "{{ input.query }}" } }, output: { mode: "json", schema: true } },
        {
          id: "count",
          uses: "code.run",
          needs: ["hits"],
          input: { result: "{{ steps.hits.output }}" },
          with: {
            entrypoint: "count.js",
            files: { "count.js": codeFile("export async function run({ input }) {\n  const hits = input.result.hits;\n  return { count: hits.length, first: hits[0].title };\n}\n") },
            sandbox: { network: "deny", env: "deny", fs: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ count: z.number().int(), first: z.string() })) },
        },
      ],
    }),
    input: { query: "durable execution" },
    check: (result) => expect(result.output).toEqual({ count: 3, first: "durable execution #1" }),
  },
  {
    name: "code-run-ts-tool-calls-from-code",
    origin: "hand-written",
    covers: "code.run (.ts, two files) calling a tool from code for every line, on the workflow input",
    definition: {
      id: "corpus.code-tools",
      input: z.object({ lines: z.array(z.object({ sku: z.string(), qty: z.number().int().min(1) })).min(1) }),
      output: z.object({ totalCents: z.number().int(), lineCount: z.number().int() }),
      models: [],
      tools: corpusTools("getPrice"),
    },
    plan: document({
      name: "corpus.code-tools",
      input: z.object({ lines: z.array(z.object({ sku: z.string(), qty: z.number().int().min(1) })).min(1) }),
      output: z.object({ totalCents: z.number().int(), lineCount: z.number().int() }),
      tools: ["getPrice"],
      steps: [
        {
          id: "price",
          uses: "code.run",
          with: {
            entrypoint: "main.ts",
            files: {
              "main.ts": codeFile(
                'import { lineTotal } from "./money.js";\n\ntype Line = { sku: string; qty: number };\n\nexport async function run({ input, tools }: { input: { lines: Line[] }; tools: any }) {\n  const totals = await Promise.all(input.lines.map(async (line) => lineTotal((await tools.getPrice({ sku: line.sku })).unitPriceCents, line.qty)));\n  return { totalCents: totals.reduce((sum, cents) => sum + cents, 0), lineCount: totals.length };\n}\n',
              ),
              "money.ts": codeFile("export function lineTotal(unitCents: number, qty: number): number {\n  return Math.round(unitCents * qty);\n}\n"),
            },
            sandbox: { network: "deny" },
          },
          output: { mode: "object", schema: schemaOf(z.object({ totalCents: z.number().int(), lineCount: z.number().int() })) },
        },
      ],
    }),
    input: { lines: [{ sku: "AB-1", qty: 2 }, { sku: "C", qty: 1 }] },
    // AB-1: 290 × 2, C: 260 × 1.
    check: (result) => expect(result.output).toEqual({ totalCents: 840, lineCount: 2 }),
  },
];
