// Independent steps outside parallel groups run at the same time (issue 19). Each figure is the
// median of several rounds, next to a baseline measured in the same process:
//   1. three independent tool.call steps whose tool takes 200 ms (+ a join step), against the same
//      three steps chained by needs, and against three 200 ms sleeps awaited together / in turn;
//   2. the same with three ai.generate steps whose model (a loopback OpenAI-compatible server on
//      127.0.0.1, real provider code and HTTP) answers after 200 ms;
//   3. a 20-wide diamond (top → 20 independent steps → bottom) against the same graph written as a
//      parallel group of 20 branches, with a 50 ms tool and with an instant one (scheduling cost).
// Default workflowHarness, localWorld with strict durability, maxConcurrentSteps 20.
//
//   pnpm --filter @little-stack-apps/bench run concurrent-steps
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createToolRegistry } from "@little-stack/harness";
import { localWorld } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { startLoopbackOpenAIServer } from "@little-stack/testing";
import { jsonSchema, tool } from "ai";

const rounds = Number(process.env.CONCURRENT_BENCH_ROUNDS ?? 5);
const root = mkdtempSync(join(tmpdir(), "concurrent-steps-bench-"));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const tools = createToolRegistry({
  wait: tool({
    description: "Waits `ms` milliseconds, then returns its input.",
    inputSchema: jsonSchema<{ name: string; ms: number }>({ type: "object", properties: { name: { type: "string" }, ms: { type: "number" } }, required: ["name", "ms"] }),
    execute: async (input) => {
      if (input.ms > 0) await sleep(input.ms);
      return input;
    },
  }),
});

const object = { mode: "object", schema: { type: "object" } } as const;
const fanInSchema = {
  type: "array",
  items: { type: "object", properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, artifacts: { type: "array" } }, required: ["itemKey", "status", "artifacts"] },
};

function document(steps: readonly unknown[]): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bench.concurrent-steps" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { tools: ["wait"], models: ["writer"] },
    steps,
  } as unknown as LwirDocument;
}

const waitStep = (id: string, ms: number, needs: readonly string[] = []) => ({ id, uses: "tool.call", needs, with: { tool: "wait", args: { name: id, ms } }, output: object });
const askStep = (id: string, needs: readonly string[] = []) => ({ id, uses: "ai.generate", needs, with: { model: "writer", prompt: `Answer for ${id}.` }, output: { mode: "text" } });

/** Three steps and a join: independent (no needs) or chained (each needs the previous one). */
function three(kind: "tool" | "model", shape: "independent" | "chained"): LwirDocument {
  const ids = ["a", "b", "c"];
  const steps = ids.map((id, index) => {
    const needs = shape === "chained" && index > 0 ? [ids[index - 1]!] : [];
    return kind === "tool" ? waitStep(id, 200, needs) : askStep(id, needs);
  });
  return document([...steps, waitStep("join", 0, ids)]);
}

/** top → 20 steps → bottom, as 20 independent steps or as one parallel group of 20 branches. */
function diamond(shape: "steps" | "group", ms: number): LwirDocument {
  const width = 20;
  if (shape === "steps") {
    const middle = Array.from({ length: width }, (_, index) => waitStep(`m${index}`, ms, ["top"]));
    return document([waitStep("top", 0), ...middle, waitStep("bottom", 0, middle.map((step) => step.id))]);
  }
  const group = {
    id: "fan",
    uses: "parallel",
    needs: ["top"],
    with: { items: "{{ input.items }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: width, maxConcurrency: width, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
    steps: [{ id: "work", uses: "tool.call", with: { tool: "wait", args: { name: "{{ item }}", ms } }, output: object }],
    output: { mode: "array", schema: fanInSchema },
  };
  return document([waitStep("top", 0), group, waitStep("bottom", 0, ["fan"])]);
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fmt = (value: number, digits = 0): string => value.toFixed(digits);

async function main(): Promise<void> {
  const server = await startLoopbackOpenAIServer({ respond: () => ({ text: "an answer", usage: { inputTokens: 20, outputTokens: 3 } }), delayMs: 200 });
  const models = { writer: createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "bench-key", includeUsage: true })("bench-model") };
  const world = localWorld({ dataDir: join(root, "world"), maxConcurrentSteps: 20 });
  let runs = 0;
  const timedRun = async (lwir: LwirDocument, input: unknown = {}): Promise<number> => {
    const version = registerWorkflowVersion(lwir);
    runs += 1;
    const start = performance.now();
    await executeWorkflowVersion({ world, workflowVersion: version, input, tools, models, runId: `bench-${runs}` });
    return performance.now() - start;
  };
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };
  console.log(`concurrent-steps benchmark (Node ${process.version}, load average ${loadavg().map((load) => load.toFixed(2)).join(" ")}, ${rounds} rounds, medians)`);

  // Warm-up: JIT, the world's first-write durability check, the provider's first connection.
  await timedRun(three("tool", "independent"));
  await timedRun(three("model", "independent"));
  await timedRun(diamond("steps", 0));
  await timedRun(diamond("group", 0), { items: Array.from({ length: 20 }, (_, index) => `i${index}`) });

  const together: number[] = [];
  const inTurn: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    together.push(await timed(() => Promise.all([sleep(200), sleep(200), sleep(200)])));
    inTurn.push(await timed(async () => {
      for (let index = 0; index < 3; index += 1) await sleep(200);
    }));
  }
  const ideal = median(together);
  console.log(`   baseline: three 200 ms sleeps awaited together ${fmt(ideal)} ms, one after another ${fmt(median(inTurn))} ms`);

  for (const kind of ["tool", "model"] as const) {
    const independent: number[] = [];
    const chained: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      independent.push(await timedRun(three(kind, "independent")));
      chained.push(await timedRun(three(kind, "chained")));
    }
    const label = kind === "tool" ? "1. three independent tool.call steps (tool 200 ms) + join" : "2. three independent ai.generate steps (loopback model 200 ms) + join";
    console.log(
      `${label}: ${fmt(median(independent))} ms (${fmt(median(independent) - ideal)} ms over the 200 ms sleeps together, ${fmt(median(independent) / ideal, 2)}×); chained by needs ${fmt(median(chained))} ms; independent / chained ${fmt(median(independent) / median(chained), 2)}×`,
    );
  }

  const items = { items: Array.from({ length: 20 }, (_, index) => `i${index}`) };
  for (const ms of [50, 0]) {
    const steps: number[] = [];
    const group: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      steps.push(await timedRun(diamond("steps", ms)));
      group.push(await timedRun(diamond("group", ms), items));
    }
    console.log(
      `3. 20-wide diamond, ${ms === 0 ? "instant tool (scheduling and durability only)" : `tool ${ms} ms`}: 20 independent steps ${fmt(median(steps))} ms vs the same graph as a parallel group ${fmt(median(group))} ms; steps / group ${fmt(median(steps) / median(group), 2)}×${ms === 0 ? "" : `; vs one ${ms} ms tool ${fmt(median(steps) / ms, 2)}× / ${fmt(median(group) / ms, 2)}×`}`,
    );
  }
  console.log(`   load average after: ${loadavg().map((load) => load.toFixed(2)).join(" ")}`);

  await world.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
}

await main();
