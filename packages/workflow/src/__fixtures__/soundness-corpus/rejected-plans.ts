import { z } from "zod";
import type { CorpusEntry } from "./corpus-entry.js";
import { corpusTools } from "./corpus-tools.js";
import { codeFile, document, fanIn, schemaOf } from "./plan-parts.js";

// The negative side of the soundness corpus: plans a model could plausibly write that the
// validator (or the binding pass) rejects, each with the finding it must get and the proof that
// letting it through would fail the run for a reason the document alone decides.

const writer = { id: "writer", description: "General-purpose writing model." };
const order = z.object({ orderId: z.string(), totalCents: z.number().int() });

/** How a rejected plan would fail if it were let through. */
export type RejectionProof =
  /** A valid LWIR the binding pass refuses: run as is through the runtime (no binding pass there), it fails with this cause. */
  | { readonly kind: "runs"; readonly causeCode: "step_schema_error" | "runtime_config_error" }
  /**
   * Rejected by validateLwir, so not runnable at all: the template at the finding's path, evaluated
   * by the runtime's evaluator in the state the run would be in (`steps`), throws — which the
   * runtime turns into runtime_config_error.
   */
  | { readonly kind: "evaluates"; readonly steps: Readonly<Record<string, { readonly status: "completed" | "pending"; readonly output?: unknown; readonly visits?: readonly unknown[] }>>; readonly error: RegExp };

export type RejectedPlan = CorpusEntry & {
  readonly rejectedBy: "validateLwir" | "binding";
  readonly finding: { readonly code: string; readonly path: string };
  readonly proof: RejectionProof;
};

export const rejectedPlans: readonly RejectedPlan[] = [
  {
    name: "rejected decision-end-before-terminal",
    rejectedBy: "binding",
    finding: { code: "binding.terminal_output_mismatch", path: "$.steps[0].output" },
    proof: { kind: "runs", causeCode: "step_schema_error" },
    origin: "hand-written",
    covers: 'a decision routes to "end" before the terminal step: the run output is then the step before the decision',
    definition: { id: "corpus.end-before-terminal", input: z.object({ message: z.string() }), output: z.object({ reply: z.string(), signed: z.boolean() }), models: [writer] },
    plan: document({
      name: "corpus.end-before-terminal",
      input: z.object({ message: z.string() }),
      output: z.object({ reply: z.string(), signed: z.boolean() }),
      models: ["writer"],
      steps: [
        { id: "classify", uses: "ai.generate", with: { model: "writer", prompt: "Spam or ham? {{ input.message }}" }, output: { mode: "choice", values: ["spam", "ham"] } },
        { id: "gate", uses: "decision", needs: ["classify"], with: { cases: [{ when: "{{ steps.classify.output === 'spam' }}", to: "end" }], default: "reply" } },
        { id: "reply", uses: "ai.generate", with: { model: "writer", prompt: "Reply to: {{ input.message }}" }, output: { mode: "text" } },
        {
          id: "sign",
          uses: "code.run",
          needs: ["reply"],
          input: { reply: "{{ steps.reply.output }}" },
          with: { entrypoint: "sign.js", files: { "sign.js": codeFile("export async function run({ input }) {\n  return { reply: `${input.reply}\\n-- Support`, signed: true };\n}\n") }, sandbox: { network: "deny" } },
          output: { mode: "object", schema: schemaOf(z.object({ reply: z.string(), signed: z.boolean() })) },
        },
      ],
    }),
    input: { message: "WIN A PRIZE" },
  },
  {
    name: "rejected fan-in-entry-output-differs-from-the-branch",
    rejectedBy: "binding",
    finding: { code: "binding.fan_in_output_mismatch", path: "$.steps[0].output.schema.items" },
    proof: { kind: "runs", causeCode: "step_schema_error" },
    origin: "hand-written",
    covers: "a fan-in schema whose entry output requires a field the branch output does not have",
    definition: { id: "corpus.fan-in-mismatch", input: z.object({ orderIds: z.array(z.string()).min(1).max(5) }), output: z.object({ count: z.number().int() }), models: [], tools: corpusTools("getOrder") },
    plan: document({
      name: "corpus.fan-in-mismatch",
      input: z.object({ orderIds: z.array(z.string()).min(1).max(5) }),
      output: z.object({ count: z.number().int() }),
      tools: ["getOrder"],
      steps: [
        {
          id: "orders",
          uses: "parallel",
          with: { items: "{{ input.orderIds }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
          steps: [{ id: "fetch", uses: "tool.call", with: { tool: "getOrder", args: { orderId: "{{ item }}" } }, output: { mode: "object", schema: schemaOf(order) } }],
          output: fanIn({ type: "object", required: ["orderId", "amountCents"], properties: { orderId: { type: "string" }, amountCents: { type: "integer" } } }),
        },
        { id: "count", uses: "code.run", needs: ["orders"], input: { entries: "{{ steps.orders.output }}" }, with: { entrypoint: "count.js", files: { "count.js": codeFile("export async function run({ input }) {\n  return { count: input.entries.length };\n}\n") }, sandbox: { network: "deny" } }, output: { mode: "object", schema: schemaOf(z.object({ count: z.number().int() })) } },
      ],
    }),
    input: { orderIds: ["A-1"] },
  },
  {
    name: "rejected tool-call-output-narrower-than-the-tool",
    rejectedBy: "binding",
    finding: { code: "binding.tool_output_mismatch", path: "$.steps[0].output" },
    proof: { kind: "runs", causeCode: "step_schema_error" },
    origin: "hand-written",
    covers: "a tool.call whose output mode is a closed object without a field the tool's output schema has",
    definition: { id: "corpus.tool-narrow", input: z.object({ city: z.string() }), output: z.object({ city: z.string(), celsius: z.number() }), models: [], tools: corpusTools("getWeather") },
    plan: document({
      name: "corpus.tool-narrow",
      input: z.object({ city: z.string() }),
      output: z.object({ city: z.string(), celsius: z.number() }),
      tools: ["getWeather"],
      steps: [{ id: "weather", uses: "tool.call", with: { tool: "getWeather", args: { city: "{{ input.city }}" } }, output: { mode: "object", schema: schemaOf(z.object({ city: z.string(), celsius: z.number() })) } }],
    }),
    input: { city: "Oslo" },
  },
  {
    name: "rejected len-of-a-first-pass-lastOutput",
    rejectedBy: "validateLwir",
    finding: { code: "expression.unguarded_back_edge_read", path: "$.steps[0].with.prompt" },
    proof: { kind: "evaluates", steps: { draft: { status: "pending" }, polish: { status: "pending" } }, error: /len\(\) needs a string, array or object, got null/ },
    origin: "hand-written",
    covers: "len(steps.draft.lastOutput) in the loop head: null on the first visit",
    definition: { id: "corpus.len-null", input: z.object({ topic: z.string() }), output: { mode: "text" }, models: [writer] },
    plan: document({
      name: "corpus.len-null",
      input: z.object({ topic: z.string() }),
      output: { type: "string" },
      models: ["writer"],
      steps: [
        { id: "draft", uses: "ai.generate", maxVisits: 2, with: { model: "writer", prompt: "Write about {{ input.topic }} (the last draft had {{ len(steps.draft.lastOutput) }} characters)." }, output: { mode: "text" } },
        { id: "again", uses: "decision", needs: ["draft"], maxVisits: 2, with: { cases: [{ when: "{{ len(steps.draft.allVisits) < 2 }}", to: "draft" }], default: "polish" } },
        { id: "polish", uses: "ai.generate", needs: ["draft"], with: { model: "writer", prompt: "Polish: {{ steps.draft.lastOutput }}" }, output: { mode: "text" } },
      ],
    }),
    input: { topic: "tides" },
  },
  {
    name: "rejected comparing-a-text-output-with-a-number",
    rejectedBy: "validateLwir",
    finding: { code: "expression.invalid", path: "$.steps[1].with.cases[0].when" },
    proof: { kind: "evaluates", steps: { score: { status: "completed", output: "7" } }, error: />= compares two numbers or two strings, got string "7" and number 7/ },
    origin: "hand-written",
    covers: "a decision comparing a text output (a score the model writes) with a number",
    definition: { id: "corpus.text-compare", input: z.object({ essay: z.string() }), output: { mode: "text" }, models: [writer] },
    plan: document({
      name: "corpus.text-compare",
      input: z.object({ essay: z.string() }),
      output: { type: "string" },
      models: ["writer"],
      steps: [
        { id: "score", uses: "ai.generate", with: { model: "writer", prompt: "Score this essay from 1 to 10; answer with the number only. {{ input.essay }}" }, output: { mode: "text" } },
        { id: "gate", uses: "decision", needs: ["score"], with: { cases: [{ when: "{{ steps.score.output >= 7 }}", to: "praise" }], default: "advise" } },
        { id: "praise", uses: "ai.generate", with: { model: "writer", prompt: "Praise: {{ input.essay }}" }, output: { mode: "text" } },
        { id: "advise", uses: "ai.generate", with: { model: "writer", prompt: "Advise on: {{ input.essay }}" }, output: { mode: "text" } },
      ],
    }),
    input: { essay: "Tides are caused by the moon." },
  },
  {
    name: "rejected unguarded-back-edge-read",
    rejectedBy: "validateLwir",
    finding: { code: "expression.unguarded_back_edge_read", path: "$.steps[0].with.prompt" },
    // The trial: the loop head reads the critique's notes before the critique ever ran.
    proof: { kind: "evaluates", steps: { draft: { status: "pending" }, critique: { status: "pending" } }, error: /steps\.critique\.lastOutput is null, so it has no property "notes"/ },
    origin: "hand-written",
    covers: "the loop head reads steps.critique.lastOutput.notes in its first pass",
    definition: { id: "corpus.unguarded", input: z.object({ topic: z.string() }), output: { mode: "text" }, models: [writer] },
    plan: document({
      name: "corpus.unguarded",
      input: z.object({ topic: z.string() }),
      output: { type: "string" },
      models: ["writer"],
      steps: [
        { id: "draft", uses: "ai.generate", maxVisits: 2, with: { model: "writer", prompt: "Write about {{ input.topic }}. Address: {{ steps.critique.lastOutput.notes }}" }, output: { mode: "text" } },
        { id: "critique", uses: "ai.generate", needs: ["draft"], maxVisits: 2, with: { model: "writer", prompt: "Critique: {{ steps.draft.lastOutput }}" }, output: { mode: "object", schema: { type: "object", required: ["ok", "notes"], properties: { ok: { type: "boolean" }, notes: { type: "string" } } } } },
        { id: "decide", uses: "decision", needs: ["critique"], maxVisits: 2, with: { cases: [{ when: "{{ steps.critique.lastOutput.ok === false }}", to: "draft" }], default: "publish" } },
        { id: "publish", uses: "ai.generate", needs: ["draft"], with: { model: "writer", prompt: "Polish: {{ steps.draft.lastOutput }}" }, output: { mode: "text" } },
      ],
    }),
    input: { topic: "tides" },
  },
  {
    name: "rejected allVisits-length",
    rejectedBy: "validateLwir",
    finding: { code: "expression.invalid_path", path: "$.steps[1].with.cases[0].when" },
    proof: { kind: "evaluates", steps: { draft: { status: "completed", visits: ["first draft"] } }, error: /is an array: it has no property "length"/ },
    origin: "hand-written",
    covers: "a loop bounded with steps.draft.allVisits.length instead of len(...)",
    definition: { id: "corpus.length", input: z.object({ topic: z.string() }), output: { mode: "text" }, models: [writer] },
    plan: document({
      name: "corpus.length",
      input: z.object({ topic: z.string() }),
      output: { type: "string" },
      models: ["writer"],
      steps: [
        { id: "draft", uses: "ai.generate", maxVisits: 3, with: { model: "writer", prompt: "Write about {{ input.topic }}." }, output: { mode: "text" } },
        { id: "again", uses: "decision", needs: ["draft"], maxVisits: 3, with: { cases: [{ when: "{{ steps.draft.allVisits.length < 3 }}", to: "draft" }], default: "publish" } },
        { id: "publish", uses: "ai.generate", needs: ["draft"], with: { model: "writer", prompt: "Polish: {{ steps.draft.lastOutput }}" }, output: { mode: "text" } },
      ],
    }),
    input: { topic: "tides" },
  },
];
