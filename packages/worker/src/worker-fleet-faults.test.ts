import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { postgresWorld, type PostgresWorld } from "@little-stack/postgres-world";
import { usePostgresCluster } from "@little-stack/postgres-world/test";
import { afterAll, describe, expect, it } from "vitest";
import { expectNoStaleWrites, expectRunsIntact, toolExecutions } from "./__fixtures__/fleet-checks.js";
import { fleetInput, fleetWorkflowVersion } from "./__fixtures__/fleet-workflow.js";
import { spawnWorker, type SpawnedWorker } from "./__fixtures__/spawn-worker.js";
import { submitWorkflow } from "./submit-workflow.js";

// Real worker processes against a real cluster. The short versions run in `pnpm test`; set
// LITTLE_FLEET_FAULTS=long for the full ones (4 workers × 200 runs with a SIGKILL every 1–3 s;
// 400 runs with a PostgreSQL restart every 5–10 s).
const long = process.env.LITTLE_FLEET_FAULTS === "long";
const killRuns = long ? 200 : 24;
const restartRuns = long ? 400 : 24;
const leaseMs = 2000;
const pollMs = 200;

const postgres = usePostgresCluster();
const root = mkdtempSync(join(tmpdir(), "worker-fleet-"));
const children: SpawnedWorker[] = [];
let schemaCounter = 0;

afterAll(async () => {
  for (const child of children) child.child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  rmSync(root, { recursive: true, force: true });
});

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const between = (low: number, high: number) => low + Math.random() * (high - low);

function fleet(name: string) {
  schemaCounter += 1;
  const schema = `${name}_${schemaCounter}`;
  const dir = join(root, schema);
  const env = {
    FLEET_PG: postgres.cluster.connectionString,
    FLEET_SCHEMA: schema,
    FLEET_DATA_DIR: join(dir, "shared"),
    FLEET_LEASE_MS: String(leaseMs),
    FLEET_POLL_MS: String(pollMs),
    FLEET_TOOL_LOG: join(dir, "tools.log"),
  };
  const world = postgresWorld({ connectionString: postgres.cluster.connectionString, schema, dataDir: env.FLEET_DATA_DIR, reconnectWithinMs: 120_000 });
  let workerCounter = 0;
  return {
    schema,
    dir,
    world,
    env,
    spawn(extra: Record<string, string> = {}): SpawnedWorker {
      workerCounter += 1;
      const child = spawnWorker({ ...env, FLEET_HOLDER: `${schema}-w${workerCounter}`, ...extra });
      children.push(child);
      return child;
    },
  };
}

async function submitAll(world: PostgresWorld, count: number, prefix: string) {
  const version = fleetWorkflowVersion();
  const runs: { runId: string; index: number }[] = [];
  for (let index = 0; index < count; index += 1) {
    const runId = `${prefix}-${index}`;
    await submitWorkflow({ world, workflowVersion: version, input: fleetInput(index), runId });
    runs.push({ runId, index });
  }
  return runs;
}

async function finishedCount(world: PostgresWorld): Promise<number> {
  return (await world.listSubmissions({ state: "finished" })).length;
}

function report(title: string, figures: Record<string, unknown>): void {
  process.stdout.write(`\n[fleet] ${title}: ${JSON.stringify({ ...figures, loadAverage: loadavg().map((value) => Number(value.toFixed(2))) })}\n`);
}

describe("a fleet of worker processes", () => {
  it(`completes ${killRuns} runs with parallel branches while a random worker is SIGKILLed every 1–3 s`, async () => {
    const { world, spawn, env, schema } = fleet("kills");
    const runs = await submitAll(world, killRuns, "run-kill");
    const live = new Set<SpawnedWorker>();
    const all: SpawnedWorker[] = [];
    for (let index = 0; index < 4; index += 1) {
      const child = spawn();
      live.add(child);
      all.push(child);
    }
    const kills: { pid: number; at: number }[] = [];
    const started = Date.now();
    // The first kill as soon as a worker holds a run (so there is always at least one), then one every 1–3 s.
    await Promise.race(all.map((child) => child.waitFor((line) => line.type === "claimed")));
    for (let first = true; (await finishedCount(world)) < runs.length; first = false) {
      if (!first) await sleep(between(1000, 3000));
      if ((await finishedCount(world)) >= runs.length) break;
      const victims = [...live];
      const victim = victims[Math.floor(Math.random() * victims.length)]!;
      victim.child.kill("SIGKILL");
      kills.push({ pid: victim.pid, at: Date.now() });
      live.delete(victim);
      await victim.exited;
      const replacement = spawn();
      live.add(replacement);
      all.push(replacement);
      expect(Date.now() - started, "the batch finishes").toBeLessThan(long ? 1_800_000 : 240_000);
    }
    const elapsedMs = Date.now() - started;
    const { steps } = await expectRunsIntact(world, runs);
    await expectNoStaleWrites(postgres.admin, schema);
    // When did another worker pick up what each killed worker held?
    const lines = all.flatMap((child) => child.lines);
    const resumeDelays: number[] = [];
    for (const kill of kills) {
      const held = new Set<string>();
      for (const line of lines.filter((line) => line.pid === kill.pid && line.at <= kill.at)) {
        if (line.type === "claimed") held.add(line.runId!);
        if (line.type === "completed" || line.type === "failed" || line.type === "lease_lost") held.delete(line.runId!);
      }
      for (const runId of held) {
        const next = lines.filter((line) => line.type === "claimed" && line.runId === runId && line.pid !== kill.pid && line.at > kill.at).sort((left, right) => left.at - right.at)[0];
        if (next !== undefined) resumeDelays.push(next.at - kill.at);
      }
    }
    const tools = toolExecutions(env.FLEET_TOOL_LOG);
    report("kills", {
      runs: runs.length,
      kills: kills.length,
      elapsedMs,
      stepCompletions: steps,
      toolExecutions: tools.executions,
      toolCalls: tools.calls,
      toolCallsReExecuted: tools.reExecuted,
      takeovers: resumeDelays.length,
      resumeAfterKillMs: resumeDelays.length === 0 ? null : { max: Math.max(...resumeDelays), mean: Math.round(resumeDelays.reduce((sum, value) => sum + value, 0) / resumeDelays.length) },
      boundMs: leaseMs + pollMs,
    });
    expect(kills.length).toBeGreaterThan(0);
    // Every call ran at least once; a call ran twice only when it was in flight at a kill.
    expect(tools.reExecuted).toBeLessThanOrEqual(kills.length * 4 * 2);
    for (const child of live) child.child.kill("SIGTERM");
    await Promise.all([...live].map((child) => child.exited));
    await world.close();
  }, long ? 2_400_000 : 300_000);

  it("refuses every append of a worker SIGSTOPped past its lease once another took its run over, and the run completes", async () => {
    const { world, spawn, dir, schema } = fleet("stops");
    const gateFile = join(dir, "gate-open");
    const version = fleetWorkflowVersion();
    await submitWorkflow({ world, workflowVersion: version, input: fleetInput(7, { gate: true }), runId: "run-stopped" });
    const paused = spawn({ FLEET_GATE: gateFile });
    const claimed = await paused.waitFor((line) => line.type === "claimed" && line.runId === "run-stopped");
    // The run waits at its gate step on the first worker: stop that process there.
    const toolLog = join(dir, "tools.log");
    while (!(existsSync(toolLog) && readFileSync(toolLog, "utf8").includes("gate-begin"))) await sleep(20);
    paused.child.kill("SIGSTOP");
    const taker = spawn({ FLEET_GATE: gateFile });
    const takeover = await taker.waitFor((line) => line.type === "claimed" && line.runId === "run-stopped");
    expect(takeover.fence).toBeGreaterThan(claimed.fence!);
    writeFileSync(gateFile, "open");
    await expectRunsIntact(world, [{ runId: "run-stopped", index: 7 }]).catch(async (error: unknown) => {
      throw error;
    });
    // Revive the stopped worker: whatever it still wanted to write is refused.
    paused.child.kill("SIGCONT");
    const lost = await paused.waitFor((line) => line.type === "lease_lost" && line.runId === "run-stopped");
    expect(lost.reason).toMatch(/lease|fence/);
    expect(paused.lines.some((line) => line.type === "completed")).toBe(false);
    const { rows } = await postgres.admin.query<{ fence: string; first: number; last: number; count: string }>(
      `SELECT fence, min(sequence) AS first, max(sequence) AS last, count(*) AS count FROM ${schema}.events WHERE run_id = 'run-stopped' GROUP BY fence ORDER BY fence`,
    );
    // Two holders wrote, one after the other: nothing under the old fence after the takeover.
    expect(rows.map((row) => Number(row.fence))).toEqual([claimed.fence, takeover.fence]);
    expect(rows[0]!.last).toBeLessThan(rows[1]!.first);
    await expectNoStaleWrites(postgres.admin, schema);
    const events = await world.listEvents("run-stopped");
    expect(events.filter((event) => event.type === "RunCompleted")).toHaveLength(1);
    report("sigstop", { oldFence: claimed.fence, newFence: takeover.fence, eventsByFence: rows.map((row) => ({ fence: Number(row.fence), count: Number(row.count) })) });
    paused.child.kill("SIGTERM");
    taker.child.kill("SIGTERM");
    await Promise.all([paused.exited, taker.exited]);
    await world.close();
  }, 120_000);

  it(`completes ${restartRuns} runs while PostgreSQL restarts (pg_ctl restart -m immediate) every ${long ? "5–10" : "2–4"} s, keeping every acknowledged event`, async () => {
    const { world, spawn, dir, schema } = fleet("restarts");
    const runs = await submitAll(world, restartRuns, "run-restart");
    const workers = Array.from({ length: 3 }, (_, index) => spawn({ FLEET_ACK_FILE: join(dir, `acks-${index}.log`) }));
    let restarts = 0;
    const started = Date.now();
    // The first restart as soon as the workers are writing (so there is always at least one).
    await Promise.race(workers.map((child) => child.waitFor((line) => line.type === "claimed")));
    for (let first = true; (await finishedCount(world)) < runs.length; first = false) {
      if (!first) await sleep(long ? between(5000, 10_000) : between(2000, 4000));
      if ((await finishedCount(world)) >= runs.length) break;
      await postgres.cluster.restart({ mode: "immediate" });
      restarts += 1;
      expect(Date.now() - started, "the batch finishes").toBeLessThan(long ? 1_800_000 : 240_000);
    }
    const elapsedMs = Date.now() - started;
    await expectRunsIntact(world, runs);
    await expectNoStaleWrites(postgres.admin, schema);
    let acknowledged = 0;
    for (let index = 0; index < workers.length; index += 1) {
      const file = join(dir, `acks-${index}.log`);
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
        const [runId, sequence, eventId] = line.split(" ");
        const { rows } = await postgres.admin.query<{ event_id: string }>(`SELECT event_id FROM ${schema}.events WHERE run_id = $1 AND sequence = $2`, [runId, Number(sequence)]);
        expect(rows[0]?.event_id, `acknowledged ${runId}#${sequence}`).toBe(eventId);
        acknowledged += 1;
      }
    }
    report("restarts", { runs: runs.length, restarts, elapsedMs, acknowledgedEventsChecked: acknowledged });
    expect(restarts).toBeGreaterThan(0);
    expect(acknowledged).toBeGreaterThan(0);
    for (const child of workers) child.child.kill("SIGTERM");
    await Promise.all(workers.map((child) => child.exited));
    await world.close();
  }, long ? 2_400_000 : 300_000);
});
