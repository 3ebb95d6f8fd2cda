import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LittleWorkflowError } from "@little-stack/canonical";
import { localWorld, memoryWorld } from "@little-stack/local-world";
import { postgresWorld, type PostgresWorld } from "@little-stack/postgres-world";
import { usePostgresCluster } from "@little-stack/postgres-world/test";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { fleetInput, fleetTools, fleetWorkflowVersion } from "./__fixtures__/fleet-workflow.js";
import { awaitRun, startWorker, submitWorkflow, type Worker, type WorkerEvent } from "./index.js";

const postgres = usePostgresCluster();
const root = mkdtempSync(join(tmpdir(), "worker-test-"));
const closing: { close(): Promise<void> }[] = [];
const stopping: Worker[] = [];
let counter = 0;

afterEach(async () => {
  for (const worker of stopping.splice(0)) await worker.stop();
  for (const world of closing.splice(0)) await world.close();
});

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

function deployment(): (options?: { dataDir?: string }) => PostgresWorld {
  counter += 1;
  const schema = `w_${counter}`;
  const dataDir = join(root, `shared-${counter}`);
  return (options = {}) => {
    const world = postgresWorld({ connectionString: postgres.cluster.connectionString, schema, dataDir: options.dataDir ?? dataDir, leaseMs: 3000 });
    closing.push(world);
    return world;
  };
}

async function uninterrupted(index: number): Promise<unknown> {
  const world = memoryWorld();
  try {
    return (await executeWorkflowVersion({ world, workflowVersion: fleetWorkflowVersion(), input: fleetInput(index), tools: fleetTools({}) })).output;
  } finally {
    await world.close();
  }
}

describe("startWorker", () => {
  it("executes submitted runs on two workers, each once, with the output of an uninterrupted run", async () => {
    const world = deployment();
    const submitter = world();
    const version = fleetWorkflowVersion();
    const runIds: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      runIds.push((await submitWorkflow({ world: submitter, workflowVersion: version, input: fleetInput(index), runId: `run-fleet-${index}` })).runId);
    }
    const events: WorkerEvent[] = [];
    for (let worker = 0; worker < 2; worker += 1) {
      stopping.push(startWorker({ world: world(), tools: fleetTools({}), concurrency: 3, pollEveryMs: 50, onEvent: (event) => events.push(event) }));
    }
    for (const [index, runId] of runIds.entries()) {
      const outcome = await awaitRun(submitter, runId, { pollEveryMs: 50 });
      expect(outcome.status).toBe("completed");
      expect(outcome.output).toEqual(await uninterrupted(index));
    }
    for (const worker of stopping.splice(0)) await worker.stop();
    expect(events.filter((event) => event.type === "claimed")).toHaveLength(12);
    expect(events.filter((event) => event.type === "completed").map((event) => (event as { runId: string }).runId).sort()).toEqual([...runIds].sort());
    expect((await submitter.listSubmissions({ state: "finished" })).map((submission) => submission.outcome)).toEqual(Array(12).fill("completed"));
  });

  it("marks a run whose failure is recorded as finished-failed, and awaitRun reports the cause", async () => {
    const world = deployment();
    const submitter = world();
    await submitWorkflow({ world: submitter, workflowVersion: fleetWorkflowVersion(), input: { n: 1 }, runId: "run-bad-input" });
    stopping.push(startWorker({ world: world(), tools: fleetTools({}), pollEveryMs: 50 }));
    const outcome = await awaitRun(submitter, "run-bad-input", { pollEveryMs: 50 });
    expect(outcome).toMatchObject({ status: "failed", error: { causeCode: "input_schema_error" } });
    await stopping.splice(0)[0]!.stop();
    expect(await submitter.getSubmission("run-bad-input")).toMatchObject({ state: "finished", outcome: "failed" });
  });

  it("finishes as failed, once, a run no worker could ever start (options it cannot apply), and awaitRun says why", async () => {
    const world = deployment();
    const submitter = world();
    const version = fleetWorkflowVersion();
    await submitter.submitRun({ runId: "run-bad-options", workflowVersion: version as never, input: fleetInput(1), tools: ["record", "gate"], models: [], options: { retries: 3 } });
    const events: WorkerEvent[] = [];
    stopping.push(startWorker({ world: world(), tools: fleetTools({}), pollEveryMs: 20, onEvent: (event) => events.push(event) }));
    const outcome = await awaitRun(submitter, "run-bad-options", { pollEveryMs: 50 });
    expect(outcome).toMatchObject({ status: "failed", error: { causeCode: "worker.invalid_options" } });
    expect(outcome.error?.message).toContain("options.retries");
    await stopping.splice(0)[0]!.stop();
    expect(events.filter((event) => event.type === "claimed")).toHaveLength(1);
    expect(await submitter.getSubmission("run-bad-options")).toMatchObject({ state: "finished", outcome: "failed", claims: 1 });
  });

  it("never claims a run whose tools it lacks", async () => {
    const world = deployment();
    const submitter = world();
    await submitWorkflow({ world: submitter, workflowVersion: fleetWorkflowVersion(), input: fleetInput(1), runId: "run-needs-tools" });
    const events: WorkerEvent[] = [];
    const lacking = startWorker({ world: world(), tools: {}, pollEveryMs: 20, onEvent: (event) => events.push(event) });
    stopping.push(lacking);
    // Let it poll a while: it must not take the run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.filter((event) => event.type === "claimed")).toEqual([]);
    expect(await submitter.getSubmission("run-needs-tools")).toMatchObject({ state: "queued", claims: 0 });
    stopping.push(startWorker({ world: world(), tools: fleetTools({}), pollEveryMs: 20 }));
    expect((await awaitRun(submitter, "run-needs-tools", { pollEveryMs: 50 })).status).toBe("completed");
  });

  it("refuses to claim from a data dir the other workers do not share, so memory and scratch never split", async () => {
    const world = deployment();
    const submitter = world();
    // The first worker names the shared folder.
    const shared = startWorker({ world: world(), tools: fleetTools({}), pollEveryMs: 20 });
    await submitWorkflow({ world: submitter, workflowVersion: fleetWorkflowVersion(), input: fleetInput(2), runId: "run-shared-1" });
    expect((await awaitRun(submitter, "run-shared-1", { pollEveryMs: 50 })).status).toBe("completed");
    await shared.stop();
    const events: WorkerEvent[] = [];
    const elsewhere = startWorker({ world: world({ dataDir: join(root, `elsewhere-${counter}`) }), tools: fleetTools({}), pollEveryMs: 20, onEvent: (event) => events.push(event) });
    stopping.push(elsewhere);
    await submitWorkflow({ world: submitter, workflowVersion: fleetWorkflowVersion(), input: fleetInput(3), runId: "run-shared-2" });
    while (!events.some((event) => event.type === "claim_error")) await new Promise((resolve) => setTimeout(resolve, 20));
    const refusal = events.find((event) => event.type === "claim_error") as { error: unknown };
    expect(LittleWorkflowError.is(refusal.error, "world.data_dir_not_shared")).toBe(true);
    expect(events.some((event) => event.type === "claimed")).toBe(false);
    expect(await submitter.getSubmission("run-shared-2")).toMatchObject({ state: "queued" });
  });

  it("refuses at submission a version whose LWIR is not valid or was changed after locking", async () => {
    const submitter = deployment()();
    const version = fleetWorkflowVersion();
    const changed = { ...version, lwir: { ...version.lwir, metadata: { name: "changed" } } };
    await expect(submitWorkflow({ world: submitter, workflowVersion: changed, input: fleetInput(1) })).rejects.toThrow(/not the id of its LWIR/);
    const invalid = { ...version, lwir: { ...version.lwir, steps: [] } };
    await expect(submitWorkflow({ world: submitter, workflowVersion: invalid, input: fleetInput(1) })).rejects.toThrow(/not valid/);
    expect(await submitter.listSubmissions()).toEqual([]);
  });

  it("lets the runtime run directly on a PostgreSQL world (no worker) and resume a finished run without executing anything again", async () => {
    const world = deployment()();
    const logFile = join(root, `direct-${counter}.log`);
    const tools = fleetTools({ logFile });
    const first = await executeWorkflowVersion({ world, workflowVersion: fleetWorkflowVersion(), input: fleetInput(4), runId: "run-direct", tools });
    const executions = readFileSync(logFile, "utf8").split("\n").filter(Boolean).length;
    expect(executions).toBe(5);
    expect(first.output).toEqual(await uninterrupted(4));
    const events = await world.listEvents("run-direct");
    const again = await executeWorkflowVersion({ world, workflowVersion: fleetWorkflowVersion(), input: fleetInput(4), runId: "run-direct", tools });
    expect(again.output).toEqual(first.output);
    expect((await world.listEvents("run-direct")).length).toBe(events.length);
    expect((await world.getRun("run-direct"))?.lastEventType).toBe("RunCompleted");
    expect(readFileSync(logFile, "utf8").split("\n").filter(Boolean).length).toBe(executions);
  });

  it("refuses a world without a run queue, naming what to use", () => {
    const world = localWorld({ dataDir: join(root, "local") });
    closing.push(world);
    expect(() => startWorker({ world })).toThrow(/postgresWorld/);
    expect(() => startWorker({ world: deployment()(), concurrency: 0 })).toThrow(/concurrency/);
  });
});
