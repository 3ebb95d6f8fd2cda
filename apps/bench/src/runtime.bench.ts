// Runtime overhead against raw better-sqlite3 in the same process:
//   1. a 1,000-step sequential run of trivial tool.call steps vs one committed row per step
//   2. per-step overhead around step 10 vs around step 10,000 of one run (flatness)
//   3. a 100-branch fan-out
//   4. resuming (and replaying) a completed 1,000-step run
//
//   pnpm --filter @little-stack-apps/bench run runtime
//   RUNTIME_BENCH_LONG=2000 … for a shorter flatness run; RUNTIME_BENCH_DURABILITY=process for synchronous=NORMAL
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { localWorld, type Durability } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument, type LwirStep } from "@little-stack/lwir";
import { executeWorkflowVersion, replayRun } from "@little-stack/runtime";
import { noopTools, toolCallHarness } from "./tool-call-harness.js";

const durability = (process.env.RUNTIME_BENCH_DURABILITY ?? "strict") as Durability;
const longRun = Number(process.env.RUNTIME_BENCH_LONG ?? 10_000);
const root = mkdtempSync(join(tmpdir(), "runtime-bench-"));

/** Tool timestamps: the time between two consecutive tool calls is one step's whole cost. */
let stamps: number[] = [];
const tools = noopTools(() => stamps.push(performance.now()));
const harness = toolCallHarness(tools);

const objectOutput = { mode: "object", schema: { type: "object" } } as const;

function document(steps: readonly unknown[]): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bench" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { tools: ["noop"], models: [] },
    steps,
  } as unknown as LwirDocument;
}

function chain(length: number): LwirDocument {
  return document(
    Array.from({ length }, (_, index) => ({
      id: `s${index}`,
      uses: "tool.call",
      needs: index === 0 ? [] : [`s${index - 1}`],
      with: { tool: "noop", args: { i: index } },
      output: objectOutput,
    })),
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

let rawRuns = 0;
function rawBaseline(steps: number): number {
  rawRuns += 1;
  const database = new Database(join(root, `raw-${rawRuns}.db`));
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${durability === "strict" ? "FULL" : "NORMAL"}`);
  // The world's table layout (a rowid table keyed by (run_id, sequence)), without its trigger.
  database.exec("CREATE TABLE events (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (run_id, sequence))");
  const insert = database.prepare("INSERT INTO events (run_id, sequence, type, payload) VALUES (?, ?, ?, ?)");
  const start = performance.now();
  for (let index = 0; index < steps; index += 1) insert.run("run", index + 1, "StepCompleted", JSON.stringify({ stepPath: `s${index}`, output: { i: index } }));
  const ms = performance.now() - start;
  database.close();
  return ms;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fmt = (value: number, digits = 1): string => value.toFixed(digits);

async function main(): Promise<void> {
  const world = localWorld({ dataDir: join(root, "world"), durability, maxConcurrentSteps: 8 });
  console.log(`runtime benchmark (durability ${durability}, Node ${process.version}, load average ${loadavg().map((load) => load.toFixed(1)).join(" ")})`);

  // 1. 1,000 sequential steps vs raw SQLite, alternating rounds so disk and CPU noise hit both;
  //    the ratio of each round, median over the rounds.
  const thousand = registerWorkflowVersion(chain(1_000));
  // Warm both sides first (JIT, statement caches, the first-write durability check), so the rounds
  // compare steady-state per-step costs; the warm-up run's own cost is printed for reference.
  const warmRaw = rawBaseline(200);
  const warm = await timed(() => executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(chain(200)), input: {}, tools, workerHarness: harness, runId: "warm-up" }));
  console.log(`0. warm-up (cold process): a 200-step run ${fmt(warm.ms, 0)} ms vs raw 200 rows ${fmt(warmRaw, 0)} ms (${fmt(warm.ms / warmRaw, 2)}×)`);
  const runs: number[] = [];
  const raws: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    raws.push(rawBaseline(1_000));
    stamps = [];
    runs.push((await timed(() => executeWorkflowVersion({ world, workflowVersion: thousand, input: {}, tools, workerHarness: harness, runId: `seq-${round}` }))).ms);
  }
  const ratios = runs.map((ms, index) => ms / raws[index]!);
  const runPerStep = median(runs) / 1_000;
  const rawPerStep = median(raws) / 1_000;
  console.log(
    `1. 1,000-step run: ${fmt(runPerStep * 1000, 0)} µs/step; raw better-sqlite3 one committed row/step: ${fmt(rawPerStep * 1000, 0)} µs/step; ratio per round ${ratios.map((ratio) => fmt(ratio, 2)).join(", ")}, median ${fmt(median(ratios), 2)}× (target < 3×)`,
  );
  const events = (await world.listEvents("seq-0")).length;
  console.log(`   ${fmt(events / 1_000, 1)} events/step; appends are batched at non-boundaries`);

  // 2. Flatness: per-step time around step 10 vs around the last step of one long run.
  const long = registerWorkflowVersion(chain(longRun));
  stamps = [];
  const longTimed = await timed(() => executeWorkflowVersion({ world, workflowVersion: long, input: {}, tools, workerHarness: harness, runId: "long" }));
  const deltas = stamps.slice(1).map((stamp, index) => stamp - stamps[index]!);
  // Medians of 200-step windows: robust to the odd fsync stall or descheduling.
  const early = median(deltas.slice(10, 210));
  const late = median(deltas.slice(-200));
  console.log(`2. ${longRun}-step run: ${fmt(longTimed.ms / 1000, 1)} s total; median step time at steps 10-210: ${fmt(early * 1000, 0)} µs, last 200: ${fmt(late * 1000, 0)} µs; ratio ${fmt(late / early, 2)}× (target ≤ 1.5×)`);

  // 3. 100-branch fan-out.
  const fan = registerWorkflowVersion(
    document([
      {
        id: "fan",
        uses: "parallel",
        with: { items: "{{ input.items }}", itemKey: "{{ item.i }}", cardinality: { kind: "matches_items" }, maxBranches: 100, maxConcurrency: 100, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "work", uses: "tool.call", with: { tool: "noop", args: { i: "{{ item.i }}" } }, output: objectOutput }],
        output: {
          mode: "array",
          schema: { type: "array", items: { type: "object", properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, error: {}, artifacts: { type: "array" } }, required: ["itemKey", "status", "artifacts"] } },
        },
      },
    ]),
  );
  const items = Array.from({ length: 100 }, (_, i) => ({ i }));
  // The first fan-out is cold (the parallel code paths' JIT, the group's schema compilation); the
  // next ones show the steady state. Each against raw SQLite committing 100 rows one by one.
  const fanRuns: number[] = [];
  const fanRaws: number[] = [];
  for (let round = 0; round < 4; round += 1) {
    fanRaws.push(rawBaseline(100));
    fanRuns.push((await timed(() => executeWorkflowVersion({ world, workflowVersion: fan, input: { items }, tools, workerHarness: harness, runId: `fan-${round}` }))).ms);
  }
  const fanRatios = fanRuns.slice(1).map((ms, index) => ms / fanRaws[index + 1]!);
  const warmFan = median(fanRuns.slice(1));
  console.log(
    `3. 100-branch fan-out (maxConcurrency 100, maxConcurrentSteps 8): cold ${fmt(fanRuns[0]!, 0)} ms; warm median ${fmt(warmFan, 0)} ms = ${fmt((warmFan / 100) * 1000, 0)} µs/branch; raw 100 committed rows ${fmt(median(fanRaws), 0)} ms; warm ratio median ${fmt(median(fanRatios), 2)}×`,
  );

  // 4. Resume and replay of the completed 1,000-step run.
  const resumeTimed = await timed(() => executeWorkflowVersion({ world, workflowVersion: thousand, input: {}, tools, workerHarness: harness, runId: "seq-0" }));
  const replayTimed = await timed(() => replayRun(world, "seq-0"));
  console.log(`4. resume of a completed 1,000-step run: ${fmt(resumeTimed.ms, 1)} ms (${resumeTimed.value.events.length} events); replayRun: ${fmt(replayTimed.ms, 1)} ms; vs the original run ${fmt(median(runs), 0)} ms`);

  await world.close();
  rmSync(root, { recursive: true, force: true });
}

await main();
