// Live events (issue 16): the delay from a commit to its delivery, during a 100-branch fan-out on
// a local world (strict durability), for
//   1. onEvent (called synchronously right after the commit), and
//   2. a RunEventStream consumer iterating concurrently (the streamWorkflow form),
// and what watching costs: the fan-out's wall time with onEvent + stream vs without (same process).
// "Commit" is the moment the world's appendEvents resolved (a wrapper around the world stamps it).
//
//   pnpm --filter @little-stack-apps/bench run live-events      (LIVE_EVENTS_ROUNDS=5 by default)
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { localWorld, type World } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion, RunEventStream, type RunEvent } from "@little-stack/runtime";
import { noopTools, toolCallHarness } from "./tool-call-harness.js";

const rounds = Number(process.env.LIVE_EVENTS_ROUNDS ?? 5);
const root = mkdtempSync(join(tmpdir(), "live-events-bench-"));
const tools = noopTools();
const harness = toolCallHarness(tools);
const items = Array.from({ length: 100 }, (_, i) => ({ i }));
const fan = registerWorkflowVersion({
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "bench.live-events" },
  input: { schema: { type: "object" } },
  output: { schema: true },
  permissions: { tools: ["noop"], models: [] },
  steps: [
    {
      id: "fan",
      uses: "parallel",
      with: { items: "{{ input.items }}", itemKey: "{{ item.i }}", cardinality: { kind: "matches_items" }, maxBranches: 100, maxConcurrency: 100, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
      steps: [{ id: "work", uses: "tool.call", with: { tool: "noop", args: { i: "{{ item.i }}" } }, output: { mode: "object", schema: { type: "object" } } }],
      output: {
        mode: "array",
        schema: { type: "array", items: { type: "object", properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, error: {}, artifacts: { type: "array" } }, required: ["itemKey", "status", "artifacts"] } },
      },
    },
  ],
} as unknown as LwirDocument) as never;

/** The world with each stored envelope's commit time stamped (performance.now() when the append resolved). */
function stampingWorld(world: World, stamps: Map<number, number>): World {
  return new Proxy(world, {
    get(target, property, receiver) {
      if (property === "appendEvents") {
        return async (...args: Parameters<World["appendEvents"]>) => {
          const stored = await target.appendEvents(...args);
          const now = performance.now();
          for (const event of stored) stamps.set(event.sequence, now);
          return stored;
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const fmt = (value: number, digits = 1): string => value.toFixed(digits);

try {
  const world = localWorld({ dataDir: root, maxConcurrentSteps: 8 });
  const direct: number[] = [];
  const streamed: number[] = [];
  const watchedMs: number[] = [];
  const plainMs: number[] = [];
  const listenerOnlyMs: number[] = [];
  let events = 0;
  // Round 0 warms the code paths and is left out of every figure.
  for (let round = 0; round <= rounds; round += 1) {
    const startPlain = performance.now();
    await executeWorkflowVersion({ world, workflowVersion: fan, input: { items }, tools, workerHarness: harness, runId: `plain-${round}` });
    const plain = performance.now() - startPlain;
    // A listener that reads each event's type only: what delivering costs the run, without a consumer.
    let seenTypes = 0;
    const startListener = performance.now();
    await executeWorkflowVersion({ world, workflowVersion: fan, input: { items }, tools, workerHarness: harness, runId: `listener-${round}`, onEvent: (event) => void (seenTypes += event.type.length) });
    const listenerOnly = performance.now() - startListener;

    const stamps = new Map<number, number>();
    const stream = new RunEventStream({ source: world });
    const roundDirect: number[] = [];
    const roundStreamed: number[] = [];
    const consumer = (async () => {
      for await (const event of stream) if (!event.ephemeral) roundStreamed.push(performance.now() - stamps.get(event.sequence)!);
    })();
    const onEvent = (event: RunEvent) => {
      if (!event.ephemeral) roundDirect.push(performance.now() - stamps.get(event.sequence)!);
      stream.push(event);
    };
    const startWatched = performance.now();
    await executeWorkflowVersion({ world: stampingWorld(world, stamps), workflowVersion: fan, input: { items }, tools, workerHarness: harness, runId: `watched-${round}`, onEvent });
    const watched = performance.now() - startWatched;
    stream.end();
    await consumer;
    if (round === 0) continue;
    direct.push(...roundDirect);
    streamed.push(...roundStreamed);
    watchedMs.push(watched);
    plainMs.push(plain);
    listenerOnlyMs.push(listenerOnly);
    events = roundDirect.length;
  }
  await world.close();
  const median = (values: readonly number[]) => quantile(values, 0.5);
  console.log(`live events during a 100-branch fan-out (local world, strict durability, ${rounds} warm rounds, ${events} events per run)`);
  console.log(`  commit → onEvent:          median ${fmt(median(direct) * 1000, 0)} µs, p99 ${fmt(quantile(direct, 0.99) * 1000, 0)} µs, max ${fmt(Math.max(...direct) * 1000, 0)} µs`);
  console.log(`  commit → stream consumer:  median ${fmt(median(streamed) * 1000, 0)} µs, p99 ${fmt(quantile(streamed, 0.99) * 1000, 0)} µs, max ${fmt(Math.max(...streamed) * 1000, 0)} µs`);
  console.log(`  fan-out wall time: unwatched median ${fmt(median(plainMs), 0)} ms; with a no-op onEvent ${fmt(median(listenerOnlyMs), 0)} ms = ${fmt(median(listenerOnlyMs) / median(plainMs), 2)}×; with onEvent + a stream consumer (and commit stamps) ${fmt(median(watchedMs), 0)} ms = ${fmt(median(watchedMs) / median(plainMs), 2)}×`);
  console.log(`  load average: ${loadavg().map((value) => value.toFixed(2)).join(" ")}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
