import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { LittleWorkflowError } from "@little-stack/canonical";
import { afterAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { withTmpfs } from "./__fixtures__/tmpfs.js";
import { writtenLength } from "./__fixtures__/written-length.js";
import { localWorld } from "./local-world.js";
import { RunHeads } from "./run-heads.js";
import { repositoryRoot, spawnFixture } from "./__fixtures__/child-process.js";

const root = mkdtempSync(join(tmpdir(), "local-world-damage-"));
let counter = 0;
const freshDir = (): string => join(root, `w${(counter += 1)}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** A data dir as a crash leaves it: a child appended `batches` × 2 events and was SIGKILLed with its connection open. */
async function killedWriter(batches: number): Promise<{ dataDir: string; eventsDb: string; last: number; lastEventId: string }> {
  const dataDir = freshDir();
  const writer = spawnFixture("wal-writer.ts", [dataDir, "run-1", String(batches)]);
  const done = await writer.waitForLine((line) => line.startsWith("done "));
  writer.child.kill("SIGKILL");
  await writer.exited;
  const [, last, lastEventId] = done.split(" ");
  return { dataDir, eventsDb: join(dataDir, "events", "events.db"), last: Number(last), lastEventId: lastEventId! };
}

function expectCorrupt(error: unknown, sequence: number): LittleWorkflowError {
  expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), String(error)).toBe(true);
  const corrupt = error as LittleWorkflowError;
  expect(corrupt.details).toMatchObject({ runId: "run-1", sequence });
  expect(corrupt.message).toContain('run "run-1"');
  return corrupt;
}

function checksums(dataDir: string): Map<string, string> {
  const sums = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else sums.set(path, createHash("sha256").update(readFileSync(path)).digest("hex"));
    }
  };
  walk(dataDir);
  return sums;
}

describe("localWorld: a log that lost committed events is refused, never served short", () => {
  it("reads everything a killed writer committed (the commits live in events.db-wal)", async () => {
    const { dataDir, eventsDb, last, lastEventId } = await killedWriter(30);
    expect(statSync(`${eventsDb}-wal`).size).toBeGreaterThan(statSync(eventsDb).size);
    const world = localWorld({ dataDir });
    const events = await world.listEvents("run-1");
    expect(events.length).toBe(last);
    expect(events.at(-1)!.eventId).toBe(lastEventId);
    expect((await world.getRun("run-1"))!.eventCount).toBe(last);
    await world.close();
  });

  it("refuses the run when events.db-wal was deleted, naming the first missing sequence; other runs stay usable", async () => {
    const { dataDir, eventsDb, last } = await killedWriter(30);
    unlinkSync(`${eventsDb}-wal`);
    unlinkSync(`${eventsDb}-shm`);
    // The schema itself was in the WAL: a reader finds no events table, and still the record.
    const reader = localWorld({ dataDir, readOnly: true });
    expectCorrupt(await caught(() => reader.listEvents("run-1")), 1);
    expect(await reader.listRuns()).toEqual([]);
    expect(await reader.recordedRunIds()).toEqual(["run-1"]);
    await reader.close();
    const world = localWorld({ dataDir });
    const error = expectCorrupt(await caught(() => world.listEvents("run-1")), 1);
    expect(error.message).toContain(`through #${last}`);
    expect(error.message).toContain(join(dataDir, "events", "heads", "run-1"));
    expectCorrupt(await caught(() => world.getRun("run-1")), 1);
    // An append would write a different history over the lost one: refused, nothing stored.
    expectCorrupt(await caught(() => world.appendEvents("run-1", { type: "RunStarted", payload: {} })), 1);
    expect(await world.listRuns()).toEqual([]);
    expect(await world.recordedRunIds()).toEqual(["run-1"]);
    // A new run is not affected.
    expect((await world.appendEvents("run-2", { type: "RunStarted", payload: {} }))[0]!.sequence).toBe(1);
    expect((await world.listEvents("run-2")).length).toBe(1);
    await world.close();
  });

  it("refuses the run when events.db-wal was cut in half or had 16 bytes flipped in its middle", async () => {
    for (const damage of ["truncate", "flip"] as const) {
      const { dataDir, eventsDb, last } = await killedWriter(30);
      const wal = `${eventsDb}-wal`;
      // The middle of what was written: a strict world's WAL is zero-filled ahead (wal-preallocation.ts).
      const written = writtenLength(readFileSync(wal));
      if (damage === "truncate") truncateSync(wal, Math.floor(written / 2));
      else {
        const bytes = readFileSync(wal);
        for (let index = 0; index < 16; index += 1) bytes[Math.floor(written / 2) + index]! ^= 0xff;
        writeFileSync(wal, bytes);
      }
      const world = localWorld({ dataDir });
      const error = await caught(() => world.listEvents("run-1"));
      expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), `${damage}: ${String(error)}`).toBe(true);
      const sequence = (error as LittleWorkflowError).details["sequence"] as number;
      expect(sequence).toBeGreaterThan(1);
      expect(sequence).toBeLessThanOrEqual(last);
      await world.close();
    }
  });

  it("refuses a zero-byte events.db, and events.db deleted while its WAL is there", async () => {
    const zero = await killedWriter(5);
    truncateSync(zero.eventsDb, 0);
    unlinkSync(`${zero.eventsDb}-wal`);
    const world = localWorld({ dataDir: zero.dataDir });
    expectCorrupt(await caught(() => world.listEvents("run-1")), 1);
    await world.close();

    const missing = await killedWriter(5);
    unlinkSync(missing.eventsDb);
    const before = checksums(missing.dataDir);
    const error = await caught(() => localWorld({ dataDir: missing.dataDir }));
    expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), String(error)).toBe(true);
    expect((error as Error).message).toContain("database file is missing");
    expect(existsSync(missing.eventsDb)).toBe(false);
    expect(checksums(missing.dataDir)).toEqual(before);
  });

  it("refuses a run whose commit record is damaged, and a log replaced by another history", async () => {
    const { dataDir } = await killedWriter(3);
    const head = join(dataDir, "events", "heads", "run-1");
    writeFileSync(head, "x".repeat(128));
    const world = localWorld({ dataDir });
    const error = await caught(() => world.listEvents("run-1"));
    expect(LittleWorkflowError.is(error, "world.event_log_corrupt")).toBe(true);
    expect((error as Error).message).toContain("commit record");
    await world.close();

    // Same length, other events: the head's id does not match what the log holds at its sequence.
    const other = await killedWriter(3);
    const donorDir = freshDir();
    const donor = localWorld({ dataDir: donorDir });
    await donor.appendEvents("run-1", [1, 2, 3, 4, 5, 6].map((n) => ({ type: "Other", payload: { n } })));
    await donor.close();
    const target = new Database(join(other.dataDir, "events", "events.db"));
    target.exec(`ATTACH DATABASE '${join(donorDir, "events", "events.db")}' AS donor`);
    target.exec("DELETE FROM main.events WHERE run_id = 'run-1'");
    target.exec("INSERT INTO main.events (run_id, sequence, event_id, type, recorded_at, payload, row_check) SELECT run_id, sequence, event_id, type, recorded_at, payload, row_check FROM donor.events");
    target.close();
    const check = localWorld({ dataDir: other.dataDir });
    const mismatch = await caught(() => check.listEvents("run-1"));
    expect(LittleWorkflowError.is(mismatch, "world.event_log_corrupt"), String(mismatch)).toBe(true);
    expect((mismatch as Error).message).toContain("not the one this run committed");
    await check.close();
  });

  it("refuses an event whose recorded time was edited (the id does not cover it; the row check does)", async () => {
    const world = localWorld({ dataDir: freshDir() });
    await world.appendEvents("run-1", [{ type: "A", payload: 1 }, { type: "B", payload: 2 }]);
    const database = new Database(world.paths.eventsDb);
    database.prepare("UPDATE events SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE run_id = 'run-1' AND sequence = 2").run();
    database.close();
    const error = expectCorrupt(await caught(() => world.listEvents("run-1")), 2);
    expect(error.message).toContain("recorded time");
    await world.close();
  });
});

/**
 * The WAL writes, commit-record writes and fdatasyncs of a real `wal-writer.ts` process appending
 * `batches` batches (traced with strace), in order: each call as "wal", "record" (a commit record),
 * "blank" (the record file created) or "sync", with the calls' text beside them.
 */
function tracedWalWriter(batches: number, mode: "exit" | "exit-locked" | "exit-soft"): { kinds: string[]; calls: string[] } {
  const dataDir = freshDir();
  mkdirSync(dataDir, { recursive: true });
  const trace = join(dataDir, "..", `trace-${counter}-${mode}.txt`);
  execFileSync(
    "strace",
    ["-f", "-y", "-qq", "-e", "trace=pwrite64,fdatasync", "-o", trace, process.execPath, "--conditions=@little-stack/source", "--import", "tsx", join(repositoryRoot, "packages/local-world/src/__fixtures__/wal-writer.ts"), dataDir, "run-1", String(batches), mode],
    { cwd: repositoryRoot, stdio: "ignore" },
  );
  const calls = readFileSync(trace, "utf8")
    .split("\n")
    .map((line) => line.replace(/^\d+\s+/, ""))
    .filter((line) => /events\.db-wal>|heads\/run-1>/.test(line) && !line.includes("<unfinished"));
  const kinds = calls.map((line) => (line.startsWith("fdatasync(") ? "sync" : line.includes("heads/run-1>") ? (line.includes("lw-head") ? "record" : "blank") : "wal"));
  return { kinds, calls };
}

describe("localWorld: the commit record is written before a commit is synced", () => {
  it("strict mode: each commit writes its WAL frames, then the run's commit record, then fdatasyncs the WAL", () => {
    // A kill while a commit is being synced must not leave a committed batch without its record
    // (a WAL later cut at that batch would then go unnoticed): traced on a real process.
    const { kinds, calls } = tracedWalWriter(3, "exit");
    const records = kinds.flatMap((kind, index) => (kind === "record" ? [index] : []));
    expect(records).toHaveLength(3);
    for (const index of records) {
      expect(kinds[index - 1], calls[index]).toBe("wal");
      expect(kinds[index + 1], calls[index]).toBe("sync");
    }
  });

  it("strict mode: taking and giving back a run lock commits without a sync; the first append after it syncs the lock row too", () => {
    // See sqlite-run-locks.ts for why a lock row needs no sync of its own.
    const traced = (mode: "exit" | "exit-locked"): string[] => tracedWalWriter(3, mode).kinds;
    const plain = traced("exit");
    const locked = traced("exit-locked");
    const syncs = (kinds: string[]): number => kinds.filter((kind) => kind === "sync").length;
    expect(syncs(plain)).toBeGreaterThanOrEqual(3);
    expect(syncs(locked)).toBe(syncs(plain));
    // The lock's rows are written: WAL frames before the first commit record, and after the last sync (the release).
    const firstRecord = locked.indexOf("record");
    expect(locked.slice(0, firstRecord).filter((kind) => kind === "wal").length).toBeGreaterThan(plain.slice(0, plain.indexOf("record")).filter((kind) => kind === "wal").length);
    expect(locked.slice(locked.lastIndexOf("sync") + 1)).toContain("wal");
    expect(plain.slice(plain.lastIndexOf("sync") + 1)).not.toContain("wal");
  });
});

describe("localWorld: a durable: false batch", () => {
  it("is not in the run's commit record until a durable append follows it", async () => {
    const world = localWorld({ dataDir: freshDir(), durability: "strict" });
    const heads = new RunHeads(world.paths.heads);
    const [first] = await world.appendEvents("run-1", { type: "RunStarted", payload: {} });
    expect(heads.read("run-1")).toEqual({ kind: "head", head: { sequence: 1, eventId: first!.eventId } });
    await world.appendEvents("run-1", [{ type: "StepScheduled", payload: { stepPath: "a" } }, { type: "StepAttemptStarted", payload: { stepPath: "a" } }], { durable: false });
    expect(heads.read("run-1")).toEqual({ kind: "head", head: { sequence: 1, eventId: first!.eventId } });
    const [completed] = await world.appendEvents("run-1", { type: "StepCompleted", payload: { stepPath: "a" } });
    expect(heads.read("run-1")).toEqual({ kind: "head", head: { sequence: 4, eventId: completed!.eventId } });
    await world.close();
  });

  it("strict mode: is committed without an fdatasync (traced on a real process)", () => {
    const traced = (mode: "exit" | "exit-soft"): string[] => tracedWalWriter(4, mode).kinds;
    const plain = traced("exit");
    const soft = traced("exit-soft");
    const count = (kinds: string[], kind: string): number => kinds.filter((each) => each === kind).length;
    // Four batches, the second and the fourth durable: false: two syncs and two records fewer.
    expect(count(plain, "record")).toBe(4);
    expect(count(soft, "record")).toBe(2);
    expect(count(soft, "sync")).toBe(count(plain, "sync") - 2);
    expect(count(soft, "wal")).toBeGreaterThan(0);
  });

  it("lost with WAL frames an OS crash did not keep, leaves a sound log that ends at the last durable batch", async () => {
    const dataDir = freshDir();
    const walCopy = join(root, `wal-copy-${counter}`);
    const writer = spawnFixture("soft-append-writer.ts", [dataDir, "run-1", walCopy]);
    const done = await writer.waitForLine((line) => line.startsWith("done "));
    expect(done).toBe("done 4");
    writer.child.kill("SIGKILL");
    await writer.exited;
    // The disk as an OS crash may leave it: the WAL as it was after the durable batch (the
    // frames written later never reached it), the commit record as written.
    const eventsDb = join(dataDir, "events", "events.db");
    writeFileSync(`${eventsDb}-wal`, readFileSync(walCopy));
    unlinkSync(`${eventsDb}-shm`);
    const world = localWorld({ dataDir });
    expect((await world.listEvents("run-1")).map((event) => event.type)).toEqual(["RunStarted", "StepCompleted"]);
    // The run goes on from there: a resume appends what was lost again.
    const [next] = await world.appendEvents("run-1", { type: "StepScheduled", payload: { stepPath: "b" } });
    expect(next!.sequence).toBe(3);
    await world.close();
  });
});

describe("localWorld({ readOnly: true })", () => {
  it("reads a killed writer's WAL in place, changes no file of the data dir, and refuses every write", async () => {
    const { dataDir, eventsDb, last } = await killedWriter(10);
    const before = checksums(dataDir);
    const world = localWorld({ dataDir, readOnly: true });
    expect((await world.listEvents("run-1")).length).toBe(last);
    expect((await world.listRuns()).map((run) => run.runId)).toEqual(["run-1"]);
    for (const write of [
      () => world.appendEvents("run-1", { type: "A", payload: 1 }),
      () => world.writeArtifact({ runId: "run-1", stepPath: "", name: "a", text: "x" }),
      () => world.acquireRunLock("run-1"),
      () => world.writeOuterLoopManifest("loop-1", {}),
    ]) {
      expect(LittleWorkflowError.is(await caught(write), "world.read_only")).toBe(true);
    }
    await world.close();
    const after = checksums(dataDir);
    // SQLite's shared-memory index may be rebuilt by any reader; every other file is unchanged.
    for (const [path, sum] of before) if (!path.endsWith("-shm")) expect(after.get(path), path).toBe(sum);
    expect([...after.keys()].filter((path) => !before.has(path))).toEqual([]);
    expect(statSync(eventsDb).size).toBeGreaterThan(0);
  });

  it("creates nothing for a folder without an event log and says so", async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir);
    const error = await caught(() => localWorld({ dataDir, readOnly: true }));
    expect(LittleWorkflowError.is(error, "world.invalid_data_dir"), String(error)).toBe(true);
    expect((error as Error).message).toContain(join(dataDir, "events", "events.db"));
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("reads a log written before row checks existed, and a writer adds the column once", async () => {
    const dataDir = freshDir();
    const world = localWorld({ dataDir });
    await world.appendEvents("run-1", [{ type: "A", payload: 1 }]);
    await world.close();
    const eventsDb = join(dataDir, "events", "events.db");
    const database = new Database(eventsDb);
    database.exec("ALTER TABLE events DROP COLUMN row_check");
    database.close();
    const reader = localWorld({ dataDir, readOnly: true });
    expect((await reader.listEvents("run-1")).map((event) => event.payload)).toEqual([1]);
    await reader.close();
    const writer = localWorld({ dataDir });
    await writer.appendEvents("run-1", [{ type: "B", payload: 2 }]);
    expect((await writer.listEvents("run-1")).map((event) => event.payload)).toEqual([1, 2]);
    await writer.close();
    const columns = new Database(eventsDb, { readonly: true });
    expect(columns.prepare("SELECT row_check IS NULL FROM events ORDER BY sequence").pluck().all()).toEqual([1, 0]);
    columns.close();
  });
});

describe("localWorld: data dirs it cannot use", () => {
  it("refuses a data dir on procfs at once instead of spinning in mkdir", async () => {
    for (const dataDir of ["/proc/self", "/proc/1/x"]) {
      const error = await caught(() => localWorld({ dataDir }));
      expect(LittleWorkflowError.is(error, "world.data_dir_not_writable"), `${dataDir}: ${String(error)}`).toBe(true);
      expect((error as Error).message).toContain(dataDir);
    }
  });

  it("refuses an events.db that is a directory, naming it", async () => {
    const dataDir = freshDir();
    mkdirSync(join(dataDir, "events", "events.db"), { recursive: true });
    for (const readOnly of [false, true]) {
      const error = await caught(() => localWorld({ dataDir, readOnly }));
      expect(LittleWorkflowError.is(error, "world.invalid_data_dir"), String(error)).toBe(true);
      expect((error as Error).message).toContain(`${join(dataDir, "events", "events.db")} is a directory`);
    }
  });
});

describe("localWorld on a full disk", () => {
  it("names a failed artifact or event write, leaves no temp file and keeps what was stored", async () => {
    // A real full file system: a 1 MiB tmpfs (the tests run as root, as CI does).
    await withTmpfs(freshDir(), "1m", async (mountPoint) => {
      const dataDir = join(mountPoint, "data");
      const world = localWorld({ dataDir });
      await world.appendEvents("run-1", { type: "RunStarted", payload: {} });
      const kept = await world.writeArtifact({ runId: "run-1", stepPath: "a", name: "small.txt", text: "kept" });
      const artifactError = await caught(() => world.writeArtifact({ runId: "run-1", stepPath: "a", name: "big.bin", bytes: new Uint8Array(2 * 1024 * 1024) }));
      expect(LittleWorkflowError.is(artifactError, "world.data_dir_write_failed"), String(artifactError)).toBe(true);
      expect((artifactError as Error).message).toContain("ENOSPC");
      expect((artifactError as Error).message).toContain(join(dataDir, "artifacts"));
      const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.startsWith(".tmp-"));
      expect([...leftovers(join(dataDir, "artifacts")), ...leftovers(join(dataDir, "artifacts", "blobs"))]).toEqual([]);
      // Fill what is left, then an append fails by name and stores nothing.
      const filler = join(mountPoint, "filler");
      try {
        execFileSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=4k"], { stdio: "ignore" });
      } catch {
        // dd stops with ENOSPC: the disk is full now.
      }
      const appendError = await caught(async () => {
        for (let index = 0; index < 200; index += 1) await world.appendEvents("run-1", { type: "StepCompleted", payload: { index, text: "x".repeat(4000) } });
      });
      expect(LittleWorkflowError.is(appendError, "world.event_log_unavailable"), String(appendError)).toBe(true);
      expect((appendError as Error).message).toMatch(/SQLITE_FULL/);
      const stored = await world.listEvents("run-1");
      expect(stored.map((event) => event.sequence)).toEqual(stored.map((_, index) => index + 1));
      expect(await world.readArtifactText(kept.id)).toBe("kept");
      rmSync(filler);
      await world.appendEvents("run-1", { type: "RunCompleted", payload: {} });
      await world.close();
    });
  });
});
