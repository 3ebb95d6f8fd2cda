import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnFixture, type FixtureProcess } from "./__fixtures__/child-process.js";
import { localWorld } from "./local-world.js";
import { RunLockedError } from "./run-lock-errors.js";

const root = mkdtempSync(join(tmpdir(), "local-world-locks-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function contender(dataDir: string, runId: string): Promise<FixtureProcess> {
  const process = spawnFixture("lock-contender.ts", [dataDir, runId]);
  await process.waitForLine((line) => line === "ready");
  return process;
}

async function attempt(process: FixtureProcess): Promise<string> {
  process.child.stdin.write("go\n");
  return process.waitForLine((line) => line.startsWith("acquired ") || line.startsWith("refused "));
}

describe("localWorld run locks across real processes", () => {
  it("lets exactly one of four racing processes win, round after round", async () => {
    const dataDir = join(root, "race");
    await localWorld({ dataDir }).close();
    for (let round = 0; round < 3; round += 1) {
      const runId = `run-race-${round}`;
      const contenders = await Promise.all(Array.from({ length: 4 }, () => contender(dataDir, runId)));
      // All four are open and waiting; release them as close together as one loop allows.
      const outcomes = await Promise.all(contenders.map((process) => attempt(process)));
      expect(outcomes.filter((line) => line.startsWith("acquired "))).toHaveLength(1);
      expect(outcomes.filter((line) => line === "refused world.run_locked")).toHaveLength(3);
      for (const process of contenders) process.child.stdin.end();
      const exits = await Promise.all(contenders.map((process) => process.exited));
      expect(exits.map((exit) => exit.code)).toEqual([0, 0, 0, 0]);
    }
  });

  it("refuses a lock held by a live process with a message naming it, and takes it once released", async () => {
    const dataDir = join(root, "live");
    const holder = await contender(dataDir, "run-live");
    expect(await attempt(holder)).toMatch(/^acquired [0-9a-f]{32} -$/);
    const world = localWorld({ dataDir });
    const owner = JSON.parse(readFileSync(join(world.paths.locks, "run-live", "owner.json"), "utf8")) as Record<string, unknown>;
    expect(owner).toMatchObject({ runId: "run-live", pid: holder.child.pid, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const refusal = await world.acquireRunLock("run-live").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RunLockedError);
    expect((refusal as RunLockedError).message).toContain(`process ${holder.child.pid}`);
    expect((refusal as RunLockedError).message).toContain("alive");
    holder.child.stdin.end();
    expect((await holder.exited).code).toBe(0);
    const lock = await world.acquireRunLock("run-live");
    expect(lock.recoveredFrom).toBeUndefined();
    await world.close();
  });

  it("recovers the lock of a process killed with SIGKILL", async () => {
    const dataDir = join(root, "stale");
    const holder = await contender(dataDir, "run-stale");
    expect(await attempt(holder)).toMatch(/^acquired /);
    holder.child.kill("SIGKILL");
    expect((await holder.exited).signal).toBe("SIGKILL");
    const world = localWorld({ dataDir });
    const lock = await world.acquireRunLock("run-stale");
    expect(lock.recoveredFrom?.pid).toBe(holder.child.pid);
    const owner = JSON.parse(readFileSync(join(world.paths.locks, "run-stale", "owner.json"), "utf8")) as Record<string, unknown>;
    expect(owner).toMatchObject({ pid: process.pid, token: lock.token });
    // The recovered lock is a real lock: a second process is refused while this one holds it.
    const second = await contender(dataDir, "run-stale");
    expect(await attempt(second)).toBe("refused world.run_locked");
    second.child.stdin.end();
    await second.exited;
    await lock.release();
    expect(() => readFileSync(join(world.paths.locks, "run-stale", "owner.json"))).toThrow();
    await world.close();
  });

  it("gives a closed world's locks back", async () => {
    const dataDir = join(root, "close");
    const first = localWorld({ dataDir });
    await first.acquireRunLock("run-close");
    await first.close();
    const second = localWorld({ dataDir });
    const lock = await second.acquireRunLock("run-close");
    expect(lock.recoveredFrom).toBeUndefined();
    await second.close();
  });
});
