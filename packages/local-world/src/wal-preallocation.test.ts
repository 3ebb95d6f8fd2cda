import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnFixture } from "./__fixtures__/child-process.js";
import { withTmpfs } from "./__fixtures__/tmpfs.js";
import { writtenLength } from "./__fixtures__/written-length.js";
import { localWorld } from "./local-world.js";

const root = mkdtempSync(join(tmpdir(), "wal-preallocation-"));
let counter = 0;
const freshDir = (): string => join(root, `w${(counter += 1)}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** 1,064 frames of a 4 KiB page (wal_autocheckpoint 1000 + slack) and the WAL header. */
const presized = 32 + 1064 * (24 + 4096);
const walOf = (dataDir: string): string => join(dataDir, "events", "events.db-wal");

describe("localWorld: the WAL is zero-filled ahead in strict mode", () => {
  it("sizes the WAL to what it reaches before it wraps in strict mode, and leaves it alone in process mode", async () => {
    const strict = freshDir();
    const relaxed = freshDir();
    const strictWorld = localWorld({ dataDir: strict });
    const relaxedWorld = localWorld({ dataDir: relaxed, durability: "process" });
    expect(statSync(walOf(strict)).size).toBe(presized);
    expect(statSync(walOf(relaxed)).size).toBeLessThan(64 * 1024);
    // Commits go into the zeroed space: the file does not grow.
    for (let index = 0; index < 20; index += 1) await strictWorld.appendEvents("run-1", { type: "StepCompleted", payload: { index, text: "x".repeat(500) } });
    expect(statSync(walOf(strict)).size).toBe(presized);
    expect((await strictWorld.listEvents("run-1")).length).toBe(20);
    await strictWorld.close();
    await relaxedWorld.close();
  });

  it("writes its zeros after the frames already there, never over them, while another connection holds them", async () => {
    const dataDir = freshDir();
    // A process-mode connection leaves its frames in a small WAL; it stays open, so the WAL stays.
    const first = localWorld({ dataDir, durability: "process" });
    for (let index = 0; index < 10; index += 1) await first.appendEvents("run-1", { type: "StepCompleted", payload: { index } });
    const before = readFileSync(walOf(dataDir));
    expect(before.length).toBeLessThan(presized);
    const second = localWorld({ dataDir });
    const after = readFileSync(walOf(dataDir));
    expect(after.length).toBe(presized);
    expect(Buffer.compare(after.subarray(0, before.length), before)).toBe(0);
    // Past them: the second connection's own write at open (two frames), then zeros only.
    expect(writtenLength(after)).toBeLessThanOrEqual(before.length + 2 * (24 + 4096));
    // Both connections read all of it and go on appending.
    await second.appendEvents("run-1", { type: "RunCompleted", payload: {} });
    for (const world of [first, second]) expect((await world.listEvents("run-1")).map((event) => event.sequence)).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));
    await first.close();
    await second.close();
    const reopened = localWorld({ dataDir, readOnly: true });
    expect((await reopened.listEvents("run-1")).length).toBe(11);
    await reopened.close();
  });

  it("a killed writer's commits are recovered from a zero-filled WAL (its -shm index deleted, as after a reboot)", async () => {
    const dataDir = freshDir();
    const writer = spawnFixture("wal-writer.ts", [dataDir, "run-1", "25"]);
    const done = await writer.waitForLine((line) => line.startsWith("done "));
    writer.child.kill("SIGKILL");
    await writer.exited;
    const [, last, lastEventId] = done.split(" ");
    expect(statSync(walOf(dataDir)).size).toBe(presized);
    // Without its index SQLite rebuilds it by scanning the WAL's frames: it must stop at the zeros.
    unlinkSync(`${join(dataDir, "events", "events.db")}-shm`);
    const world = localWorld({ dataDir });
    const events = await world.listEvents("run-1");
    expect(events.length).toBe(Number(last));
    expect(events.at(-1)!.eventId).toBe(lastEventId);
    await world.appendEvents("run-1", { type: "RunCompleted", payload: {} });
    expect((await world.listEvents("run-1")).length).toBe(Number(last) + 1);
    await world.close();
  });

  it("takes no space on a nearly full disk: the WAL is not zero-filled and the log works", async () => {
    // A real small file system: a 24 MiB tmpfs has less than 16 times the zeros' 4.4 MB free.
    await withTmpfs(freshDir(), "24m", async (mountPoint) => {
      const dataDir = join(mountPoint, "data");
      const world = localWorld({ dataDir });
      expect(statSync(walOf(dataDir)).size).toBeLessThan(64 * 1024);
      await world.appendEvents("run-1", { type: "RunStarted", payload: {} });
      expect((await world.listEvents("run-1")).length).toBe(1);
      await world.close();
    });
  });
});
