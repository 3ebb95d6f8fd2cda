import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventIdFor, type World } from "@little-stack/local-world";
import { postgresWorld } from "./postgres-world.js";
import { startStallingProxy, usePostgresCluster } from "./test/index.js";

// Faults against a cluster of this file's own: it is restarted and stalled.
const postgres = usePostgresCluster();
const dataRoot = mkdtempSync(join(tmpdir(), "postgres-world-faults-"));

afterAll(async () => {
  rmSync(dataRoot, { recursive: true, force: true });
});

async function expectIntactLog(world: World, runId: string, acknowledged: readonly number[]): Promise<void> {
  const events = await world.listEvents(runId);
  expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
  for (const event of events) {
    expect(event.eventId).toBe(eventIdFor({ runId, sequence: event.sequence, type: event.type, payloadJson: JSON.stringify(event.payload) }));
  }
  // Every acknowledged append is there, once.
  const written = events.map((event) => (event.payload as { n: number }).n);
  expect(new Set(written).size).toBe(written.length);
  for (const n of acknowledged) expect(written).toContain(n);
}

describe("a database that restarts (pg_ctl restart -m immediate) under a writer", () => {
  it("loses no acknowledged append and the writer carries on after reconnecting", async () => {
    const world = postgresWorld({ connectionString: postgres.cluster.connectionString, schema: "restarts", dataDir: join(dataRoot, "restarts"), reconnectWithinMs: 60_000 });
    try {
      const lock = await world.acquireRunLock("run-restart");
      const acknowledged: number[] = [];
      let restarting = true;
      // Writes go on for as long as the restarts do, so that every restart lands among appends.
      const writer = (async () => {
        for (let n = 0; restarting; n += 1) {
          await world.appendEvents("run-restart", { type: "Tick", payload: { n } }, { fence: lock.fence });
          acknowledged.push(n);
        }
      })();
      const acknowledgedBefore: number[] = [];
      for (let restart = 0; restart < 3; restart += 1) {
        while (acknowledged.length < (acknowledgedBefore.at(-1) ?? 0) + 20) await new Promise((resolve) => setTimeout(resolve, 10));
        acknowledgedBefore.push(acknowledged.length);
        await postgres.cluster.restart({ mode: "immediate" });
      }
      const afterLastRestart = acknowledged.length;
      while (acknowledged.length < afterLastRestart + 20) await new Promise((resolve) => setTimeout(resolve, 10));
      restarting = false;
      await writer;
      // The writer went on through every restart (it reconnected) and still holds its lease.
      expect(acknowledged.length).toBeGreaterThanOrEqual(afterLastRestart + 20);
      expect(lock.signal.aborted).toBe(false);
      await expectIntactLog(world, "run-restart", acknowledged);
      expect((await world.listEvents("run-restart")).length).toBe(acknowledged.length);
      await lock.release();
    } finally {
      await world.close();
    }
  }, 120_000);
});

describe("a stalled connection (a loopback proxy that holds traffic)", () => {
  it("resolves an append whose COMMIT went through but whose answer was held by reading back: stored once", async () => {
    const proxy = await startStallingProxy({ targetPort: postgres.cluster.port });
    const world = postgresWorld({
      connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
      schema: "stalls",
      dataDir: join(dataRoot, "stalls"),
      queryTimeoutMs: 300,
      reconnectWithinMs: 30_000,
    });
    try {
      const lock = await world.acquireRunLock("run-stall");
      await world.appendEvents("run-stall", { type: "Tick", payload: { n: 0 } }, { fence: lock.fence });
      proxy.holdReplies();
      const pending = world.appendEvents("run-stall", { type: "Tick", payload: { n: 1 } }, { fence: lock.fence });
      // The statement reached the server (and committed) while its answer sits in the proxy.
      while (proxy.heldBytes() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 700));
      proxy.release();
      const [stored] = await pending;
      expect(stored!.sequence).toBe(2);
      expect(world.ambiguousAppends()).toEqual({ foundCommitted: 1, resent: 0 });
      await expectIntactLog(world, "run-stall", [0, 1]);
      expect((await world.listEvents("run-stall")).length).toBe(2);

      // Held in both directions: the statement never reached the server; the retry stores it once.
      proxy.holdEverything();
      const unsent = world.appendEvents("run-stall", { type: "Tick", payload: { n: 2 } }, { fence: lock.fence });
      await new Promise((resolve) => setTimeout(resolve, 700));
      proxy.release();
      const [third] = await unsent;
      expect(third!.sequence).toBe(3);
      expect(world.ambiguousAppends()).toEqual({ foundCommitted: 1, resent: 1 });
      await expectIntactLog(world, "run-stall", [0, 1, 2]);
      expect((await world.listEvents("run-stall")).length).toBe(3);
      await lock.release();
    } finally {
      await world.close();
      await proxy.close();
    }
  }, 60_000);
});
