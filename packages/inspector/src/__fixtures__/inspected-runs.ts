import { sha256DigestOfBytes } from "@little-stack/canonical";
import { createToolRegistry } from "@little-stack/harness";
import { localWorld, type LocalWorld } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion, type RunResult } from "@little-stack/runtime";
import { createScriptedModel } from "@little-stack/testing";
import { jsonSchema, tool } from "ai";

const objectOutput = { mode: "object", schema: { type: "object" } } as const;
const code = (content: string) => ({ "main.js": { content, sha256: sha256DigestOfBytes(content) } });

function document(name: string, steps: unknown[], options: { tools?: string[]; models?: string[] } = {}): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name, version: "0.1.0" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { models: options.models ?? [], tools: options.tools ?? [], secrets: [], network: [] },
    steps,
  } as unknown as LwirDocument;
}

/** Text a model might answer with, that must show as text and never run. */
export const hostileText = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> the printer is on fire';

const brokenSource = "export async function run({ input }) {\n  const cents = input.pricing.amount * 100;\n  return { totalCents: cents };\n}\n";
const fixedSource = "export async function run({ input }) {\n  const cents = Math.round(input.price * 100);\n  return { totalCents: cents };\n}\n";

/** Gates for the run in progress: each call of `gate` waits for the next release. */
export function gates() {
  const waiting: (() => void)[] = [];
  let entered = 0;
  return {
    get entered() {
      return entered;
    },
    release(): void {
      waiting.shift()?.();
    },
    tool: tool({
      description: "Waits until the test lets it go.",
      inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
      execute: async ({ id }) => {
        entered += 1;
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { id, passed: true };
      },
    }),
  };
}

function tools(gate?: ReturnType<typeof gates>) {
  return createToolRegistry({
    lookup: tool({
      description: "Looks a customer up.",
      inputSchema: jsonSchema<{ customerId: string }>({ type: "object", properties: { customerId: { type: "string" } }, required: ["customerId"] }),
      execute: async ({ customerId }) => ({ customerId, plan: "pro" }),
    }),
    increment: tool({
      description: "Adds one.",
      inputSchema: jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
      execute: async ({ n }) => ({ n: n + 1 }),
    }),
    work: tool({
      description: "Works on one item.",
      inputSchema: jsonSchema<{ name: string }>({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
      execute: async ({ name }) => {
        await new Promise((resolve) => setTimeout(resolve, 5 + name.length));
        return { done: name };
      },
    }),
    ...(gate === undefined ? {} : { gate: gate.tool }),
  });
}

/** A completed run: a model step (priced model, answer with HTML in it), a tool step, and a code step the fixer repaired. */
export function completedRun(world: LocalWorld): Promise<RunResult> {
  const lwir = document(
    "support.triage",
    [
      { id: "lookup", uses: "tool.call", with: { tool: "lookup", args: { customerId: "{{ input.customerId }}" } }, output: objectOutput },
      { id: "summarize", uses: "ai.generate", needs: ["lookup"], with: { model: "writer", prompt: "Summarize for plan {{ steps.lookup.output.plan }}: {{ input.text }}" }, output: { mode: "text" } },
      {
        id: "total",
        uses: "code.run",
        needs: ["summarize"],
        input: { price: "{{ input.price }}" },
        with: { entrypoint: "main.js", files: code(brokenSource), sandbox: { network: "deny" } },
        onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Repair the code; call try_fix with the whole file." } },
        output: objectOutput,
      },
    ],
    { tools: ["lookup"], models: ["writer", "fixer"] },
  );
  const writer = createScriptedModel({ provider: "openai.chat", modelId: "gpt-4o-mini", script: [{ text: hostileText, usage: { inputTokens: 182, cachedInputTokens: 128, outputTokens: 31 } }] });
  const fixer = createScriptedModel({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    script: [
      // Two turns, so the log records the second's prompt after a prefix (the inspector shows it whole).
      { toolCalls: [{ toolName: "bash", args: { cmd: "cat main.js" } }], usage: { inputTokens: 500, outputTokens: 12 } },
      { toolCalls: [{ toolName: "try_fix", args: { files: { "main.js": fixedSource } } }], usage: { inputTokens: 600, outputTokens: 90 } },
      { text: "The input carries price, not pricing.amount; fixed.", usage: { inputTokens: 700, outputTokens: 20 } },
    ],
  });
  return executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(lwir) as never, input: { customerId: "C-7", text: "It crashes at login.", price: 12.5 }, tools: tools(), models: { writer, fixer }, runId: "run-completed" });
}

/** A failed run: a code step that throws, no fixer, after a tool step that worked. */
export async function failedRun(world: LocalWorld): Promise<unknown> {
  const lwir = document(
    "billing.explode",
    [
      { id: "lookup", uses: "tool.call", with: { tool: "lookup", args: { customerId: "C-9" } }, output: objectOutput },
      { id: "explode", uses: "code.run", needs: ["lookup"], with: { entrypoint: "main.js", files: code('export async function run() { throw new Error("ledger <b>locked</b>"); }\n'), sandbox: { network: "deny" } }, output: objectOutput },
    ],
    { tools: ["lookup"] },
  );
  return executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(lwir) as never, input: {}, tools: tools(), runId: "run-failed" }).catch((error: unknown) => error);
}

const fanInSchema = {
  type: "array",
  items: { type: "object", properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, error: {}, artifacts: { type: "array" } }, required: ["itemKey", "status", "artifacts"] },
};

/** A loop (a decision going back to its step three times) then a fan-out over three items. */
export function loopAndFanOutRun(world: LocalWorld): Promise<RunResult> {
  const counter = { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } };
  const lwir = document(
    "batch.loop-and-fan",
    [
      { id: "bump", uses: "tool.call", maxVisits: 5, with: { tool: "increment", args: { n: "{{ coalesce(steps.bump.lastOutput.n, 0) }}" } }, output: counter },
      { id: "check", uses: "decision", needs: ["bump"], maxVisits: 5, with: { cases: [{ when: "{{ steps.bump.lastOutput.n < 3 }}", to: "bump" }], default: "fan" } },
      {
        id: "fan",
        uses: "parallel",
        with: { items: "{{ input.items }}", itemKey: "{{ item.name }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 3, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "work", uses: "tool.call", with: { tool: "work", args: { name: "{{ item.name }}" } }, output: objectOutput }],
        output: { mode: "array", schema: fanInSchema },
      },
    ],
    { tools: ["increment", "work"] },
  );
  return executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(lwir) as never, input: { items: [{ name: "alpha" }, { name: "beta" }, { name: "gamma" }] }, tools: tools(), runId: "run-loop-fan" });
}

/** A run that waits at each `gate` step until the test releases it. */
export function runInProgress(world: LocalWorld, gate: ReturnType<typeof gates>): Promise<RunResult> {
  const lwir = document(
    "ops.slow",
    [
      { id: "first", uses: "tool.call", with: { tool: "gate", args: { id: "first" } }, output: objectOutput },
      { id: "second", uses: "tool.call", needs: ["first"], with: { tool: "gate", args: { id: "second" } }, output: objectOutput },
      { id: "third", uses: "tool.call", needs: ["second"], with: { tool: "gate", args: { id: "third" } }, output: objectOutput },
    ],
    { tools: ["gate"] },
  );
  return executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(lwir) as never, input: {}, tools: tools(gate), runId: "run-in-progress" });
}

export function writerWorld(dataDir: string): LocalWorld {
  return localWorld({ dataDir, maxConcurrentSteps: 8 });
}
