// PostgreSQL world and worker fleet, each against a baseline in the same process run:
//   1. a fenced single-event append (one statement: head CAS + fence check + insert) vs a raw
//      `pg` INSERT of the same row into a table of the same layout, interleaved, same connection pool
//   2. step completions per second with 1, 2 and 4 worker processes vs the same runs executed by
//      executeWorkflowVersion on localWorld (strict) in this process, 4 runs at a time
//   3. recovery after a SIGKILL: from the kill of the worker holding a run to another worker's
//      takeover and to the run's completion, against the bound lease + poll interval
//
//   pnpm --filter @little-stack-apps/bench run postgres-fleet
//   FLEET_BENCH_RUNS=40 FLEET_BENCH_STEPS=10 FLEET_BENCH_APPENDS=2000 to change the sizes
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eventIdFor, localWorld } from "@little-stack/local-world";
import { postgresWorld } from "@little-stack/postgres-world";
import { startPostgresCluster } from "@little-stack/postgres-world/test";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { submitWorkflow } from "@little-stack/worker";
import pg from "pg";
import { chainTools, chainVersion } from "./fleet-chain-workflow.js";

const runs = Number(process.env.FLEET_BENCH_RUNS ?? 48);
const steps = Number(process.env.FLEET_BENCH_STEPS ?? 10);
const appends = Number(process.env.FLEET_BENCH_APPENDS ?? 2000);
/** Which parts to run (FLEET_BENCH_PARTS=1,3): all by default. */
const parts = new Set((process.env.FLEET_BENCH_PARTS ?? "1,2,3").split(","));
const root = mkdtempSync(join(tmpdir(), "postgres-fleet-bench-"));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const workerFile = fileURLToPath(new URL("./fleet-worker-process.ts", import.meta.url));
const cluster = await startPostgresCluster();
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const load = () => loadavg().map((value) => value.toFixed(2)).join(" ");
const children: ChildProcess[] = [];

try {
  // 1. Fenced append vs raw insert.
  if (parts.has("1")) {
    const world = postgresWorld({ connectionString: cluster.connectionString, schema: "bench_append", dataDir: join(root, "append") });
    const raw = new pg.Pool({ connectionString: cluster.connectionString, max: 4 });
    await raw.query(`CREATE TABLE raw_events (run_id text NOT NULL, sequence integer NOT NULL, event_id text NOT NULL, type text NOT NULL, recorded_at text NOT NULL, payload text NOT NULL, fence bigint, PRIMARY KEY (run_id, sequence))`);
    const lock = await world.acquireRunLock("run-bench-append");
    const payload = { stepPath: "review[item%2E1].score", stepId: "score", attempt: 1, output: { score: 0.82, label: "keep" } };
    const payloadJson = JSON.stringify(payload);
    const timings = { fenced: 0, unfenced: 0, raw: 0 };
    let rawSequence = 0;
    const slice = 100;
    for (let done = 0; done < appends; done += slice) {
      let start = performance.now();
      for (let index = 0; index < slice; index += 1) await world.appendEvents("run-bench-append", { type: "StepCompleted", payload }, { fence: lock.fence });
      timings.fenced += performance.now() - start;
      start = performance.now();
      for (let index = 0; index < slice; index += 1) await world.appendEvents("run-bench-unfenced", { type: "StepCompleted", payload });
      timings.unfenced += performance.now() - start;
      start = performance.now();
      for (let index = 0; index < slice; index += 1) {
        rawSequence += 1;
        const eventId = eventIdFor({ runId: "run-raw", sequence: rawSequence, type: "StepCompleted", payloadJson });
        await raw.query("INSERT INTO raw_events VALUES ($1, $2, $3, $4, $5, $6, $7)", ["run-raw", rawSequence, eventId, "StepCompleted", new Date().toISOString(), payloadJson, 1]);
      }
      timings.raw += performance.now() - start;
    }
    await lock.release();
    await world.close();
    await raw.end();
    const micros = (total: number) => (total * 1000) / appends;
    console.log(`\n1. one event per append, ${appends} each, interleaved in slices of ${slice} (fsync on; load ${load()})`);
    console.log(`   raw pg INSERT (autocommit)        ${micros(timings.raw).toFixed(0)} µs`);
    console.log(`   fenced appendEvents               ${micros(timings.fenced).toFixed(0)} µs   × raw ${(timings.fenced / timings.raw).toFixed(2)}`);
    console.log(`   unfenced appendEvents             ${micros(timings.unfenced).toFixed(0)} µs   × raw ${(timings.unfenced / timings.raw).toFixed(2)}`);
  }

  // 2. Throughput: worker processes vs localWorld in this process.
  if (parts.has("2")) {
    const version = chainVersion(steps);
    const totalSteps = runs * steps;
    const local = localWorld({ dataDir: join(root, "local"), durability: "strict" });
    let start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < runs) {
          const index = next;
          next += 1;
          await executeWorkflowVersion({ world: local, workflowVersion: version, input: { n: index }, runId: `run-local-${index}`, tools: chainTools() });
        }
      }),
    );
    const localSeconds = (performance.now() - start) / 1000;
    await local.close();
    const localRate = totalSteps / localSeconds;
    console.log(`\n2. ${runs} runs × ${steps} sequential tool.call steps (load ${load()})`);
    console.log(`   localWorld (strict), this process, 4 runs at a time   ${localRate.toFixed(0)} steps/s (${localSeconds.toFixed(2)} s)`);
    for (const workers of [1, 2, 4]) {
      const schema = `bench_fleet_${workers}`;
      const spawned = Array.from({ length: workers }, (_, index) => spawnWorker({ schema, holder: `${schema}-${index}`, leaseMs: 30_000, concurrency: 4 }));
      await Promise.all(spawned.map((child) => child.started));
      const submitter = postgresWorld({ connectionString: cluster.connectionString, schema, dataDir: join(root, schema) });
      start = performance.now();
      for (let index = 0; index < runs; index += 1) await submitWorkflow({ world: submitter, workflowVersion: version, input: { n: index }, runId: `run-fleet-${index}` });
      while ((await submitter.listSubmissions({ state: "finished" })).length < runs) {
        if (performance.now() - start > 300_000) throw new Error(`${workers} worker(s) did not finish ${runs} runs within 5 minutes`);
        await sleep(20);
      }
      const seconds = (performance.now() - start) / 1000;
      await submitter.close();
      for (const child of spawned) child.process.kill("SIGTERM");
      await Promise.all(spawned.map((child) => child.exited));
      const rate = totalSteps / seconds;
      console.log(`   postgresWorld, ${workers} worker process${workers === 1 ? "  " : "es"} (4 runs each at a time) ${rate.toFixed(0)} steps/s (${seconds.toFixed(2)} s)   × localWorld ${(rate / localRate).toFixed(2)}`);
    }
  }

  // 3. Recovery after a kill.
  if (parts.has("3")) {
    const longVersion = chainVersion(20);
    console.log(`\n3. recovery after SIGKILL of the worker holding a run (one run, 20 steps of 200 ms; two idle workers; poll 200 ms; load ${load()})`);
    for (const leaseMs of [2000, 5000]) {
      const schema = `bench_recovery_${leaseMs}`;
      const pair = [0, 1].map((index) => spawnWorker({ schema, holder: `${schema}-${index}`, leaseMs, concurrency: 1, toolDelayMs: 200 }));
      await Promise.all(pair.map((worker) => worker.started));
      const submitter = postgresWorld({ connectionString: cluster.connectionString, schema, dataDir: join(root, schema) });
      await submitWorkflow({ world: submitter, workflowVersion: longVersion, input: { n: 0 }, runId: "run-recover" });
      const claims = await Promise.race(pair.map((worker, index) => worker.line((line) => line.type === "claimed").then(() => index)));
      const holder = pair[claims]!;
      const other = pair[1 - claims]!;
      while (((await submitter.getRun("run-recover"))?.eventCount ?? 0) < 40) await sleep(10);
      const killedAt = Date.now();
      holder.process.kill("SIGKILL");
      await holder.exited;
      const claimed = await other.line((line) => line.type === "claimed");
      const completed = await other.line((line) => line.type === "completed");
      console.log(`   lease ${leaseMs} ms: kill → takeover ${claimed.at - killedAt} ms (bound: lease + poll = ${leaseMs + 200} ms), kill → run completed ${completed.at - killedAt} ms`);
      other.process.kill("SIGTERM");
      await other.exited;
      await submitter.close();
    }
  }
} finally {
  for (const child of children) child.kill("SIGKILL");
  await cluster.stop();
  rmSync(root, { recursive: true, force: true });
}

function spawnWorker(options: { schema: string; holder: string; leaseMs: number; concurrency: number; toolDelayMs?: number }) {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, workerFile], {
    env: {
      ...process.env,
      BENCH_PG: cluster.connectionString,
      BENCH_SCHEMA: options.schema,
      // One shared data dir per world: a folder belongs to one database's fleet (see postgres-world).
      BENCH_DATA_DIR: join(root, options.schema),
      BENCH_LEASE_MS: String(options.leaseMs),
      BENCH_HOLDER: options.holder,
      BENCH_CONCURRENCY: String(options.concurrency),
      BENCH_POLL_MS: "200",
      BENCH_TOOL_DELAY_MS: String(options.toolDelayMs ?? 0),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const lines: { type: string; at: number }[] = [];
  const waiters = new Set<() => void>();
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as { type: string; at: number });
      buffer = buffer.slice(newline + 1);
    }
    for (const waiter of [...waiters]) waiter();
  });
  const line = (predicate: (line: { type: string; at: number }) => boolean) =>
    new Promise<{ type: string; at: number }>((resolve) => {
      const check = () => {
        const found = lines.find(predicate);
        if (found !== undefined) {
          waiters.delete(check);
          resolve(found);
        }
      };
      waiters.add(check);
      check();
    });
  return { process: child, started: line((entry) => entry.type === "started"), line, exited: new Promise<void>((resolve) => child.once("exit", () => resolve())) };
}
