// Benchmark: code.run in @little-stack/sandbox (QuickJS/WASM on a warm worker thread).
//  1. Cold start: the first execution in the process (compile WASM, start a worker, warm it up),
//     then cold workers (idle workers shut down before each run; the compiled WASM is reused).
//  2. Warm: a trivial TypeScript entrypoint that calls one tool, on a warm worker (target: median < 25 ms).
//  3. Throughput: 100 sequential warm executions.
// Baseline, in the same process: the same run() as a host function with the same tool bridge shape.
// Run: pnpm --filter @little-stack-apps/bench run sandbox
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { executeCode, shutdownSandboxWorkers, type ExecuteCodeOptions } from "@little-stack/sandbox";

const warmupRuns = 5;
const measuredRuns = 50;
const coldWorkerRuns = 5;
const throughputRuns = 100;

const source = `type Tools = { lookup(args: { id: number }): Promise<{ id: number; score: number }> };
export async function run({ input, tools }: { input: { id: number }; tools: Tools }): Promise<{ id: number; doubled: number }> {
  const found = await tools.lookup({ id: input.id });
  return { id: found.id, doubled: found.score * 2 };
}
`;

const options: ExecuteCodeOptions = {
  files: { "main.ts": { content: source, sha256: `sha256:${createHash("sha256").update(source, "utf8").digest("hex")}` } },
  entrypoint: "main.ts",
  input: { id: 7 },
  determinismSeed: "run_bench/steps/score",
  allowedTools: ["lookup"],
  callTool: async ({ args }) => ({ id: (args as { id: number }).id, score: 21 }),
};

// The baseline: the same logic run directly in the host, with JSON crossing like the bridge does.
async function hostRun({ input, tools }: { input: { id: number }; tools: { lookup(args: { id: number }): Promise<{ id: number; score: number }> } }) {
  const found = await tools.lookup({ id: input.id });
  return { id: found.id, doubled: found.score * 2 };
}
async function baselineOnce(): Promise<unknown> {
  let callIndex = 0;
  const tools = {
    lookup: async (args: { id: number }) =>
      JSON.parse(JSON.stringify(await options.callTool({ toolName: "lookup", args: JSON.parse(JSON.stringify(args)), callIndex: callIndex++ }))) as {
        id: number;
        score: number;
      },
  };
  return JSON.parse(JSON.stringify(await hostRun({ input: JSON.parse(JSON.stringify(options.input)) as { id: number }, tools })));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2 : (sorted[middle] ?? 0);
}
function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;

// 1. Cold start.
const processCold = await timed(() => executeCode(options));
const coldWorker: number[] = [];
for (let run = 0; run < coldWorkerRuns; run += 1) {
  await shutdownSandboxWorkers();
  coldWorker.push(await timed(() => executeCode(options)));
}

// 2. Warm executions (and the baseline, interleaved the same way).
for (let run = 0; run < warmupRuns; run += 1) {
  await executeCode(options);
  await baselineOnce();
}
const warm: number[] = [];
const warmInside: number[] = [];
const baseline: number[] = [];
for (let run = 0; run < measuredRuns; run += 1) {
  const started = performance.now();
  const result = await executeCode(options);
  warm.push(performance.now() - started);
  warmInside.push(result.durationMs);
  baseline.push(await timed(baselineOnce));
}

// 3. Throughput: 100 sequential executions.
const throughputStarted = performance.now();
for (let run = 0; run < throughputRuns; run += 1) await executeCode(options);
const throughputMs = performance.now() - throughputStarted;
const baselineThroughputStarted = performance.now();
for (let run = 0; run < throughputRuns; run += 1) await baselineOnce();
const baselineThroughputMs = performance.now() - baselineThroughputStarted;

await shutdownSandboxWorkers();

const warmMedian = median(warm);
const baselineMedian = median(baseline);
console.log("sandbox (code.run on QuickJS/WASM, trivial .ts entrypoint calling one tool)");
console.log(`  cold start, first execution in the process:   ${ms(processCold)}`);
console.log(`  cold worker (median of ${coldWorkerRuns}, WASM already compiled): ${ms(median(coldWorker))}`);
console.log(`  warm execution, median of ${measuredRuns}:           ${ms(warmMedian)} (p90 ${ms(percentile(warm, 0.9))}; target < 25 ms: ${warmMedian < 25 ? "met" : "MISSED"})`);
console.log(`    of which inside the worker (durationMs):     ${ms(median(warmInside))}`);
console.log(`  baseline, same run() in the host, median:      ${ms(baselineMedian)}`);
console.log(`  ratio warm sandbox / host baseline:            ${(warmMedian / baselineMedian).toFixed(0)}x`);
console.log(`  throughput, ${throughputRuns} sequential executions:      ${ms(throughputMs)} (${((throughputRuns * 1000) / throughputMs).toFixed(1)} executions/s)`);
console.log(`  baseline throughput, ${throughputRuns} host runs:           ${ms(baselineThroughputMs)} (${((throughputRuns * 1000) / baselineThroughputMs).toFixed(0)} runs/s)`);
console.log(`  ratio throughput host / sandbox:               ${(baselineThroughputMs > 0 ? throughputMs / baselineThroughputMs : 0).toFixed(0)}x slower`);
