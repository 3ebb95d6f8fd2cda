import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { LittleWorkflowError } from "@little-stack/canonical";
import type { RunLock, World } from "@little-stack/local-world";
import { latestSchemaVersion } from "./schema-migrations.js";
import { postgresWorld, type PostgresWorld } from "./postgres-world.js";
import type { PostgresWorldOptions } from "./postgres-world-options.js";
import { startStallingProxy, usePostgresCluster } from "./test/index.js";

const postgres = usePostgresCluster();
const dataRoot = mkdtempSync(join(tmpdir(), "postgres-world-test-"));
const opened: World[] = [];
let counter = 0;

afterEach(async () => {
  for (const world of opened.splice(0)) await world.close();
});

afterAll(async () => {
  rmSync(dataRoot, { recursive: true, force: true });
});

/** Worlds over one fresh schema and one shared data dir, as the workers of one deployment. */
function deployment(overrides: Partial<PostgresWorldOptions> = {}): (more?: Partial<PostgresWorldOptions>) => PostgresWorld {
  counter += 1;
  const schema = `t_${counter}`;
  const dataDir = join(dataRoot, `shared-${counter}`);
  return (more = {}) => {
    const world = postgresWorld({ connectionString: postgres.cluster.connectionString, schema, dataDir, ...overrides, ...more });
    opened.push(world);
    return world;
  };
}

async function rejection(promise: Promise<unknown>): Promise<LittleWorkflowError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LittleWorkflowError);
  return error as LittleWorkflowError;
}

function aborted(signal: AbortSignal): Promise<unknown> {
  return signal.aborted ? Promise.resolve(signal.reason) : new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));
}

describe("migrations", () => {
  it("bring a fresh schema to the latest version exactly once when many workers open it at once", async () => {
    const worker = deployment();
    await Promise.all(Array.from({ length: 8 }, () => worker().ready()));
    const { rows } = await postgres.admin.query<{ version: number }>(`SELECT version FROM t_${counter}.schema_migrations ORDER BY version`);
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: latestSchemaVersion }, (_, index) => index + 1));
  });

  it("refuse a schema that a newer package migrated", async () => {
    const worker = deployment();
    await worker().ready();
    await postgres.admin.query(`INSERT INTO t_${counter}.schema_migrations (version, name) VALUES (999, 'from the future')`);
    const error = await rejection(worker().listRuns());
    expect(error.code).toBe("world.schema_mismatch");
    expect(error.message).toContain("999");
  });

  it("refuse bad options by name", () => {
    expect(() => postgresWorld({ connectionString: "mysql://x" })).toThrow(/connectionString/);
    expect(() => postgresWorld({ connectionString: postgres.cluster.connectionString, schema: "Robert'); DROP" })).toThrow(/schema/);
    expect(() => postgresWorld({ connectionString: postgres.cluster.connectionString, leaseMs: 1000, renewEveryMs: 1000 })).toThrow(/renewEveryMs/);
  });
});

describe("leases", () => {
  it("expire by the database clock and are renewed while held", async () => {
    const worker = deployment({ leaseMs: 600, renewEveryMs: 100 });
    const world = worker();
    const lock = await world.acquireRunLock("run-renewed");
    const { rows } = await postgres.admin.query<{ now: Date }>("SELECT clock_timestamp() AS now");
    const expiresAt = Date.parse(lock.expiresAt!);
    expect(expiresAt).toBeGreaterThan(rows[0]!.now.getTime());
    expect(expiresAt).toBeLessThanOrEqual(rows[0]!.now.getTime() + 600);
    // Held across several lease lengths: each renewal moves the expiry on.
    const first = lock.expiresAt!;
    for (let round = 0; round < 4; round += 1) await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lock.signal.aborted).toBe(false);
    expect(lock.expiresAt! > first).toBe(true);
    await world.appendEvents("run-renewed", { type: "RunStarted", payload: {} }, { fence: lock.fence });
    const other = await rejection(worker().acquireRunLock("run-renewed"));
    expect(other.code).toBe("world.run_locked");
    expect(other.message).toContain(world.settings.holder);
    await lock.release();
  });

  it("abort the holder's signal when another holder took the run over, and refuse its appends", async () => {
    const worker = deployment({ leaseMs: 2000, renewEveryMs: 100 });
    const paused = worker({ holder: "worker-a" });
    const lock = await paused.acquireRunLock("run-taken");
    await paused.appendEvents("run-taken", { type: "RunStarted", payload: {} }, { fence: lock.fence });
    // As if worker-a stalled past its lease: the database lets it lapse.
    await postgres.admin.query(`UPDATE t_${counter}.runs SET lease_expires_at = clock_timestamp() - interval '1 ms' WHERE run_id = 'run-taken'`);
    const taker = worker({ holder: "worker-b" });
    const taken = await taker.acquireRunLock("run-taken");
    expect(taken.fence).toBe(lock.fence + 1);
    expect(taken.recoveredFrom).toMatchObject({ holder: "worker-a", token: lock.token });
    const reason = await aborted(lock.signal);
    expect(LittleWorkflowError.is(reason, "world.lease_lost")).toBe(true);
    expect((await rejection(paused.appendEvents("run-taken", { type: "Late", payload: {} }, { fence: lock.fence }))).code).toBe("world.lease_lost");
    await taker.appendEvents("run-taken", { type: "StepCompleted", payload: {} }, { fence: taken.fence });
    expect((await taker.listEvents("run-taken")).map((event) => event.type)).toEqual(["RunStarted", "StepCompleted"]);
    await taken.release();
  });

  it("fence the appends to a run this world holds even when they name no fence (the runtime names none), and refuse them once the lease is lost", async () => {
    const worker = deployment({ leaseMs: 60_000, renewEveryMs: 20_000 });
    const direct = worker({ holder: "direct" });
    const lock = await direct.acquireRunLock("run-implicit");
    await direct.appendEvents("run-implicit", { type: "RunStarted", payload: {} });
    const { rows } = await postgres.admin.query<{ fence: string }>(`SELECT fence FROM t_${counter}.events WHERE run_id = 'run-implicit'`);
    expect(rows.map((row) => Number(row.fence))).toEqual([lock.fence]);
    await postgres.admin.query(`UPDATE t_${counter}.runs SET lease_expires_at = clock_timestamp() - interval '1 ms' WHERE run_id = 'run-implicit'`);
    const taker = worker({ holder: "taker" });
    const taken = await taker.acquireRunLock("run-implicit");
    expect((await rejection(direct.appendEvents("run-implicit", { type: "StepCompleted", payload: { by: "direct" } }))).code).toBe("world.lease_lost");
    expect(lock.signal.aborted).toBe(true);
    // Once lost, refused here without asking the database.
    expect((await rejection(direct.appendEvents("run-implicit", { type: "StepCompleted", payload: { by: "direct" } }))).message).toContain("lost");
    await taker.appendEvents("run-implicit", { type: "StepCompleted", payload: { by: "taker" } });
    expect((await taker.listEvents("run-implicit")).map((event) => event.payload)).toEqual([{}, { by: "taker" }]);
    // After its release the run is not this world's any more: an unfenced append is unchecked again.
    await lock.release();
    await taken.release();
    await direct.appendEvents("run-implicit", { type: "Note", payload: {} });
  });

  it("refuse a fenced append the moment its lease lapsed, even before anyone took over, and abort the holder at once", async () => {
    const worker = deployment({ leaseMs: 60_000, renewEveryMs: 20_000 });
    const world = worker();
    const lock = await world.acquireRunLock("run-lapsed");
    await postgres.admin.query(`UPDATE t_${counter}.runs SET lease_expires_at = clock_timestamp() - interval '1 ms' WHERE run_id = 'run-lapsed'`);
    expect((await rejection(world.appendEvents("run-lapsed", { type: "RunStarted", payload: {} }, { fence: lock.fence }))).code).toBe("world.lease_lost");
    expect(lock.signal.aborted).toBe(true);
    expect(await world.getRun("run-lapsed")).toBeUndefined();
  });

  it("give up a lease the database cannot confirm within its length (a stalled network), before anyone can take it over", async () => {
    const proxy = await startStallingProxy({ targetPort: postgres.cluster.port });
    try {
      const worker = deployment({ leaseMs: 800, renewEveryMs: 100 });
      const stalled = worker({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, queryTimeoutMs: 200, reconnectWithinMs: 100 });
      const lock = await stalled.acquireRunLock("run-unreachable");
      proxy.holdEverything();
      const reason = await aborted(lock.signal);
      expect(LittleWorkflowError.is(reason, "world.lease_lost")).toBe(true);
      expect((reason as Error).message).toMatch(/could not be reached/);
      proxy.release();
      proxy.dropAll();
    } finally {
      await proxy.close();
    }
  });
});

describe("run queue", () => {
  const version = { id: "wfver_0000000000000001", hash: "sha256:0", lwir: { steps: [] } };

  it("is idempotent for the same submission and refuses a different one under the same id", async () => {
    const world = deployment()();
    const first = await world.submitRun({ runId: "run-q1", workflowVersion: version, input: { n: 1 }, tools: ["b", "a"], models: [] });
    expect(first).toMatchObject({ runId: "run-q1", state: "queued", tools: ["a", "b"], claims: 0, input: { n: 1 } });
    expect(await world.submitRun({ runId: "run-q1", workflowVersion: version, input: { n: 1 }, tools: ["a", "b"], models: [] })).toEqual(first);
    expect((await rejection(world.submitRun({ runId: "run-q1", workflowVersion: version, input: { n: 2 }, tools: ["a", "b"], models: [] }))).code).toBe(
      "world.submission_conflict",
    );
  });

  it("hands each run to exactly one of many concurrent claimers, oldest first, only to claimers with its tools and models", async () => {
    const worker = deployment();
    const submitter = worker();
    for (let index = 0; index < 20; index += 1) {
      await submitter.submitRun({ runId: `run-c${String(index).padStart(2, "0")}`, workflowVersion: version, input: index, tools: ["fetch"], models: index % 5 === 0 ? ["big"] : [] });
    }
    const claimers = Array.from({ length: 4 }, () => worker());
    expect(await claimers[0]!.claimRun({ tools: [], models: ["big"] })).toBeUndefined();
    const claims: { runId: string; lock: RunLock }[] = [];
    await Promise.all(
      claimers.map(async (claimer) => {
        for (;;) {
          const claim = await claimer.claimRun({ tools: ["fetch"], models: [] });
          if (claim === undefined) return;
          claims.push({ runId: claim.submission.runId, lock: claim.lock });
        }
      }),
    );
    const ids = claims.map((claim) => claim.runId).sort();
    expect(ids).toHaveLength(16);
    expect(new Set(ids).size).toBe(16);
    expect(ids.every((id) => Number(id.slice(5)) % 5 !== 0)).toBe(true);
    const big = await claimers[1]!.claimRun({ tools: ["fetch"], models: ["big"] });
    expect(big?.submission.runId).toBe("run-c00");
    expect(big?.submission.state).toBe("running");
    for (const claim of claims) await (claim.lock.release());
    await big!.lock.release();
  });

  it("gives a run whose holder's lease lapsed to the next claimer, and finishes it only under the current lease", async () => {
    const worker = deployment({ leaseMs: 60_000 });
    const first = worker({ holder: "first" });
    await first.submitRun({ runId: "run-lapse", workflowVersion: version, input: null, tools: [], models: [] });
    const claim = await first.claimRun({ tools: [], models: [] });
    expect(claim?.submission).toMatchObject({ runId: "run-lapse", claims: 1, holder: "first" });
    const second = worker({ holder: "second" });
    expect(await second.claimRun({ tools: [], models: [] })).toBeUndefined();
    await postgres.admin.query(`UPDATE t_${counter}.runs SET lease_expires_at = clock_timestamp() - interval '1 ms' WHERE run_id = 'run-lapse'`);
    const again = await second.claimRun({ tools: [], models: [] });
    expect(again?.submission).toMatchObject({ runId: "run-lapse", claims: 2, holder: "second", state: "running" });
    expect(again!.lock.fence).toBeGreaterThan(claim!.lock.fence);
    expect((await rejection(first.finishRun(claim!.lock, "completed"))).code).toBe("world.lease_lost");
    await second.finishRun(again!.lock, "completed");
    expect(await second.getSubmission("run-lapse")).toMatchObject({ state: "finished", outcome: "completed" });
    expect(await second.claimRun({ tools: [], models: [] })).toBeUndefined();
    expect((await second.listSubmissions({ state: "finished" })).map((submission) => submission.runId)).toEqual(["run-lapse"]);
  });
});

describe("shared data dir", () => {
  it("refuses to execute from a data dir that is not the one the database's other workers share", async () => {
    const worker = deployment();
    const first = worker();
    await (await first.acquireRunLock("run-a")).release();
    const sameFolder = worker();
    await (await sameFolder.acquireRunLock("run-b")).release();
    const elsewhere = worker({ dataDir: join(dataRoot, `not-shared-${counter}`) });
    const error = await rejection(elsewhere.acquireRunLock("run-c"));
    expect(error.code).toBe("world.data_dir_not_shared");
    expect(error.message).toContain("not-shared");
    expect((await rejection(elsewhere.claimRun({ tools: [], models: [] }))).code).toBe("world.data_dir_not_shared");
    // Reading is fine from anywhere (little runs on a laptop).
    expect(await elsewhere.listRuns()).toEqual([]);
  });
});
