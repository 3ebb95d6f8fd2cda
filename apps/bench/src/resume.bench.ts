// What resuming a completed 1,000-step run costs, against reading the same rows with raw
// better-sqlite3 (SELECT + JSON.parse of every payload) in the same process. Rounds alternate so
// load hits both sides; medians of the rounds. This is the figure event verification is held to
// (issue 14: verifying every event on resume must cost < 2× what resume cost before).
//
//   pnpm --filter @little-stack-apps/bench run resume
//   RESUME_BENCH_ROUNDS=21 … for more rounds
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { crc32 } from "node:zlib";
import { eventIdFor, localWorld } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion, replayRun } from "@little-stack/runtime";
import { noopTools, toolCallHarness } from "./tool-call-harness.js";

const rounds = Number(process.env.RESUME_BENCH_ROUNDS ?? 11);
const steps = 1_000;
const root = mkdtempSync(join(tmpdir(), "resume-bench-"));

const tools = noopTools();
const harness = toolCallHarness(tools);

const chain: LwirDocument = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "bench" },
  input: { schema: { type: "object" } },
  output: { schema: true },
  permissions: { tools: ["noop"], models: [] },
  steps: Array.from({ length: steps }, (_, index) => ({
    id: `s${index}`,
    uses: "tool.call",
    needs: index === 0 ? [] : [`s${index - 1}`],
    with: { tool: "noop", args: { i: index } },
    output: { mode: "object", schema: { type: "object" } },
  })),
} as unknown as LwirDocument;

async function timed(work: () => unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  console.log(`resume benchmark (Node ${process.version}, ${rounds} rounds, load average ${loadavg().map((load) => load.toFixed(1)).join(" ")})`);
  const dataDir = join(root, "world");
  const version = registerWorkflowVersion(chain);
  // "process" only to build the run quickly: resume reads, it does not commit.
  const builder = localWorld({ dataDir, durability: "process" });
  await executeWorkflowVersion({ world: builder, workflowVersion: version, input: {}, tools, workerHarness: harness, runId: "done" });
  await builder.close();

  const world = localWorld({ dataDir });
  const raw = new Database(join(dataDir, "events", "events.db"), { readonly: true });
  const select = raw.prepare<[string], { payload: string }>("SELECT sequence, event_id, type, recorded_at, payload FROM events WHERE run_id = ? ORDER BY sequence");
  const resume = () => executeWorkflowVersion({ world, workflowVersion: version, input: {}, tools, workerHarness: harness, runId: "done" });
  const eventCount = (await world.listEvents("done")).length;
  // Warm-up of every contender (JIT, statement caches, validation cache).
  await resume();
  await replayRun(world, "done");
  select.all("done").forEach((row) => JSON.parse(row.payload));

  // What verifying costs by itself: the work the world adds per stored event on every read —
  // re-deriving its id from run, sequence, type and payload, and its row check from id and time.
  const rows = raw.prepare<[string], [number, string, string, string, string]>("SELECT sequence, event_id, type, recorded_at, payload FROM events WHERE run_id = ? ORDER BY sequence").raw().all("done");
  const verify = (): void => {
    for (const [sequence, eventId, type, recordedAt, payloadJson] of rows) {
      if (eventIdFor({ runId: "done", sequence, type, payloadJson }) !== eventId) throw new Error("bench: id mismatch");
      crc32(`${eventId} ${recordedAt}`);
    }
  };
  verify();
  const figures = { raw: [] as number[], list: [] as number[], replay: [] as number[], resume: [] as number[], verify: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    figures.raw.push(await timed(() => select.all("done").forEach((row) => JSON.parse(row.payload))));
    figures.list.push(await timed(async () => (await world.listEvents("done")).forEach((event) => event.payload)));
    figures.replay.push(await timed(() => replayRun(world, "done")));
    figures.resume.push(await timed(resume));
    figures.verify.push(await timed(verify));
  }
  const rawMs = median(figures.raw);
  const line = (label: string, values: readonly number[]): string =>
    `${label.padEnd(44)} ${median(values).toFixed(1).padStart(7)} ms  (${(median(values) / rawMs).toFixed(2)}× raw)`;
  console.log(`a completed ${steps}-step run, ${eventCount} events`);
  console.log(line("raw better-sqlite3 SELECT + JSON.parse", figures.raw));
  console.log(line("world.listEvents (payloads parsed)", figures.list));
  console.log(line("replayRun", figures.replay));
  console.log(line("resume (executeWorkflowVersion, same run id)", figures.resume));
  const verifyMs = median(figures.verify);
  const resumeMs = median(figures.resume);
  console.log(line(`of which verifying ${rows.length} events (ids + row checks)`, figures.verify));
  console.log(`resume with verification / resume without it (same process): ${(resumeMs / (resumeMs - verifyMs)).toFixed(2)}× (issue 14 target < 2×)`);
  raw.close();
  await world.close();
  rmSync(root, { recursive: true, force: true });
}

await main();
