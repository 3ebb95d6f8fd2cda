import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { LittleWorkflowError } from "@little-stack/canonical";
import { afterAll, describe, expect, it } from "vitest";
import { localWorld } from "./local-world.js";
import { EventLogCorruptError, EventLogGapError } from "./event-log-errors.js";
import { DataDirNotWritableError } from "./world-errors.js";
import { resolveDataDir } from "./world-options.js";

const root = mkdtempSync(join(tmpdir(), "local-world-"));
let counter = 0;
const freshDir = () => join(root, `world-${(counter += 1)}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Read-only storage for the current user. Root ignores permission bits, so as root this mounts a
 * tmpfs and remounts it read-only (EROFS: denies root too); as another user, chmod 0555 (EACCES).
 * Root without the right to mount gets neither; the test then fails loudly rather than pass
 * without proving anything.
 */
function makeReadOnlyCapable(folder: string): {
  makeReadOnly(): void;
  makeWritable(): void;
  dispose(): void;
  expectedCode: RegExp;
} {
  if (process.getuid?.() !== 0) {
    return {
      makeReadOnly: () => chmodSync(folder, 0o555),
      makeWritable: () => chmodSync(folder, 0o755),
      dispose: () => chmodSync(folder, 0o755),
      expectedCode: /EACCES/,
    };
  }
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", folder]);
  return {
    makeReadOnly: () => execFileSync("mount", ["-o", "remount,ro", folder]),
    makeWritable: () => execFileSync("mount", ["-o", "remount,rw", folder]),
    dispose: () => execFileSync("umount", [folder]),
    expectedCode: /EROFS/,
  };
}

const fileDigest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("localWorld storage", () => {
  it("defaults the data dir to .little-workflow", () => {
    expect(resolveDataDir(undefined)).toBe(".little-workflow");
  });

  it("keeps events, artifacts and manifests across a reopen, in the documented layout", async () => {
    const dataDir = freshDir();
    const first = localWorld({ dataDir });
    const appended = await first.appendEvents("run-1", [
      { type: "RunStarted", payload: { input: { q: "x" } } },
      { type: "StepCompleted", payload: { stepPath: "a" } },
    ]);
    const artifact = await first.writeArtifact({ runId: "run-1", stepPath: "a", name: "out.json", json: { ok: true } });
    await first.writeOuterLoopManifest("loop-1", { pendingCycleRunId: "run-1" });
    const lock = await first.acquireRunLock("run-1");
    expect(existsSync(join(dataDir, "events", "events.db"))).toBe(true);
    expect(JSON.parse(readFileSync(join(dataDir, "artifacts", `${artifact.id}.json`), "utf8"))).toEqual(artifact);
    expect(readFileSync(join(dataDir, "artifacts", "blobs", artifact.id), "utf8")).toBe('{"ok":true}');
    expect(JSON.parse(readFileSync(join(dataDir, "outer-loops", "loop-1.json"), "utf8"))).toEqual({ pendingCycleRunId: "run-1" });
    expect(JSON.parse(readFileSync(join(dataDir, "locks", "run-1", "owner.json"), "utf8"))).toMatchObject({
      runId: "run-1",
      pid: process.pid,
      token: lock.token,
    });
    await first.close();

    const second = localWorld({ dataDir });
    expect(await second.listEvents("run-1")).toEqual(appended);
    expect(await second.readArtifactJson(artifact.id)).toEqual({ ok: true });
    expect(await second.readOuterLoopManifest("loop-1")).toEqual({ pendingCycleRunId: "run-1" });
    const [next] = await second.appendEvents("run-1", { type: "RunCompleted", payload: {} });
    expect(next!.sequence).toBe(3);
    await second.close();
  });

  it("rewrites an event log from the earlier WITHOUT ROWID layout once, keeping every row byte for byte", async () => {
    const dataDir = freshDir();
    const original = localWorld({ dataDir });
    await original.appendEvents("run-a", [
      { type: "RunStarted", payload: { input: { q: "é" } } },
      { type: "StepCompleted", payload: { stepPath: "a", big: "x".repeat(20_000) } },
    ]);
    await original.appendEvents("run-b", { type: "RunStarted", payload: {} });
    await original.close();
    const eventsDb = join(dataDir, "events", "events.db");
    const rowsOf = (database: Database.Database) =>
      database.prepare("SELECT run_id, sequence, event_id, type, recorded_at, payload FROM events ORDER BY run_id, sequence").all();
    // Rebuild the file in the old layout (the same trigger), as a world of the earlier version left it.
    const database = new Database(eventsDb);
    const rows = rowsOf(database);
    database.exec(`
      ALTER TABLE events RENAME TO events_now;
      CREATE TABLE events (run_id TEXT NOT NULL, sequence INTEGER NOT NULL CHECK (sequence >= 1), event_id TEXT NOT NULL,
        type TEXT NOT NULL, recorded_at TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (run_id, sequence)) WITHOUT ROWID;
      INSERT INTO events SELECT run_id, sequence, event_id, type, recorded_at, payload FROM events_now;
      DROP TABLE events_now;
      CREATE TRIGGER events_dense_sequence BEFORE INSERT ON events
      WHEN NEW.sequence <> COALESCE((SELECT MAX(sequence) FROM events WHERE run_id = NEW.run_id), 0) + 1
      BEGIN SELECT RAISE(ABORT, 'event sequences must be dense: expected the next sequence of the run'); END;`);
    const tableSql = () => database.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").pluck().get() as string;
    expect(tableSql()).toMatch(/WITHOUT ROWID/);
    database.close();

    const reopened = localWorld({ dataDir });
    await reopened.appendEvents("run-a", { type: "RunCompleted", payload: {} });
    await reopened.close();
    const after = new Database(eventsDb, { readonly: true });
    expect(after.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").pluck().get()).not.toMatch(/WITHOUT ROWID/);
    const migrated = rowsOf(after) as { run_id: string; sequence: number }[];
    expect(migrated.filter((row) => !(row.run_id === "run-a" && row.sequence === 3))).toEqual(rows);
    after.close();
    // The density trigger came back with the new table.
    const writable = new Database(eventsDb);
    expect(() =>
      writable.prepare("INSERT INTO events (run_id, sequence, event_id, type, recorded_at, payload) VALUES ('run-a', 9, 'evt_x', 'X', 'now', '{}')").run(),
    ).toThrow(/dense/);
    writable.close();
  });

  it("clears temp files of writers that died mid-write when it opens, and only those", async () => {
    const dataDir = freshDir();
    await localWorld({ dataDir }).close();
    // A pid that surely exited: a child that ran and was reaped.
    const deadPid = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }));
    const folders = [join(dataDir, "artifacts"), join(dataDir, "artifacts", "blobs"), join(dataDir, "outer-loops")];
    const dead = folders.map((folder) => join(folder, `.tmp-${deadPid}-0a1b2c3d4e5f-art_0123456789abcdef`));
    const kept = [
      join(folders[1]!, `.tmp-${process.pid}-0a1b2c3d4e5f-art_0123456789abcdef`), // this process may hold another world open
      join(folders[1]!, ".tmp-1-0a1b2c3d4e5f-art_0123456789abcdef"), // pid 1 is alive
      join(folders[1]!, "art_0123456789abcdef"), // not a temp file
    ];
    for (const file of [...dead, ...kept]) writeFileSync(file, "partial");
    const reopened = localWorld({ dataDir });
    await reopened.close();
    for (const file of dead) expect(existsSync(file), file).toBe(false);
    for (const file of kept) expect(existsSync(file), file).toBe(true);
  });

  it("runs SQLite in WAL at synchronous=NORMAL, syncing each commit itself in strict mode, checked after writing", async () => {
    const dataDir = freshDir();
    const strict = localWorld({ dataDir });
    const relaxed = localWorld({ dataDir, durability: "process" });
    await strict.appendEvents("run-1", { type: "A", payload: 1 });
    await relaxed.appendEvents("run-1", { type: "A", payload: 2 });
    expect(strict.durability).toBe("strict");
    expect(strict.storageSettings()).toEqual({ journalMode: "wal", synchronous: "NORMAL", syncedAtCommit: true });
    expect(relaxed.storageSettings()).toEqual({ journalMode: "wal", synchronous: "NORMAL", syncedAtCommit: false });
    const another = localWorld({ dataDir });
    await another.appendEvents("run-1", { type: "A", payload: 3 });
    expect(another.storageSettings()).toEqual({ journalMode: "wal", synchronous: "NORMAL", syncedAtCommit: true });
    for (const world of [strict, relaxed, another]) await world.close();
  });

  it("keeps one run dense when two worlds on one data dir append in turns", async () => {
    const dataDir = freshDir();
    const left = localWorld({ dataDir });
    const right = localWorld({ dataDir });
    const sequences: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      // Each world's cached next sequence is stale after the other one appended.
      sequences.push(...(await left.appendEvents("run-shared", { type: "Left", payload: round })).map((event) => event.sequence));
      sequences.push(
        ...(await right.appendEvents("run-shared", [{ type: "Right", payload: round }, { type: "Right", payload: round }])).map(
          (event) => event.sequence,
        ),
      );
    }
    expect(sequences).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
    expect((await left.listEvents("run-shared")).map((event) => event.sequence)).toEqual(sequences);
    await left.close();
    await right.close();
  });

  it("appends a batch larger than one INSERT statement atomically", async () => {
    const world = localWorld({ dataDir: freshDir() });
    await world.appendEvents("run-big", { type: "RunStarted", payload: {} });
    const batch = Array.from({ length: 250 }, (_, index) => ({ type: "Item", payload: { index } }));
    const stored = await world.appendEvents("run-big", batch);
    expect(stored.map((event) => event.sequence)).toEqual(Array.from({ length: 250 }, (_, index) => index + 2));
    const bad = [...batch.slice(0, 200), { type: "Item", payload: { index: Number.POSITIVE_INFINITY } }];
    expect(LittleWorkflowError.is(await caught(() => world.appendEvents("run-big", bad)), "world.invalid_event")).toBe(true);
    expect((await world.getRun("run-big"))?.eventCount).toBe(251);
    await world.close();
  });

  it("summarizes many runs", async () => {
    const world = localWorld({ dataDir: freshDir() });
    for (let index = 0; index < 30; index += 1) {
      await world.appendEvents(`run-${String(index).padStart(2, "0")}`, Array.from({ length: index + 1 }, () => ({ type: "E", payload: index })));
    }
    const runs = await world.listRuns();
    expect(runs).toHaveLength(30);
    expect(runs.map((run) => run.eventCount).sort((left, right) => left - right)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    await world.close();
  });
});

describe("localWorld integrity", () => {
  it("has the database refuse a repeated or skipped sequence from any writer", async () => {
    const world = localWorld({ dataDir: freshDir() });
    await world.appendEvents("run-1", [{ type: "A", payload: 1 }, { type: "A", payload: 2 }]);
    const database = new Database(world.paths.eventsDb);
    const insert = database.prepare(
      "INSERT INTO events (run_id, sequence, event_id, type, recorded_at, payload) VALUES ('run-1', ?, 'evt_0000000000000000', 'X', '2026-01-01T00:00:00.000Z', '{}')",
    );
    expect(() => insert.run(2)).toThrow(/dense|UNIQUE/);
    expect(() => insert.run(4)).toThrow(/dense/);
    expect(() => database.prepare("INSERT INTO events (run_id, sequence, event_id, type, recorded_at, payload) VALUES ('run-2', 2, 'e', 'X', 't', '{}')").run()).toThrow(/dense/);
    database.close();
    // The world's own next append is unaffected.
    expect((await world.appendEvents("run-1", { type: "A", payload: 3 }))[0]!.sequence).toBe(3);
    await world.close();
  });

  it("reports a gap made behind its back instead of returning a holed log", async () => {
    const world = localWorld({ dataDir: freshDir() });
    await world.appendEvents("run-1", [1, 2, 3, 4].map((value) => ({ type: "A", payload: value })));
    const database = new Database(world.paths.eventsDb);
    database.prepare("DELETE FROM events WHERE run_id = 'run-1' AND sequence = 2").run();
    database.close();
    const error = await caught(() => world.listEvents("run-1"));
    expect(error).toBeInstanceOf(EventLogGapError);
    expect((error as Error).message).toContain("expected sequence 2, found 3");
    await world.close();
  });

  it("detects tampered manifests and missing bytes, and a rewrite of the same content heals them", async () => {
    const world = localWorld({ dataDir: freshDir() });
    await world.appendEvents("run-1", { type: "RunStarted", payload: {} });
    const input = { runId: "run-1", stepPath: "a", name: "out.txt", text: "hello" } as const;
    const manifest = await world.writeArtifact(input);
    const manifestPath = join(world.paths.artifacts, `${manifest.id}.json`);
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, name: "other.txt" }));
    expect(LittleWorkflowError.is(await caught(() => world.readArtifact(manifest.id)), "world.artifact_integrity")).toBe(true);
    writeFileSync(manifestPath, "{not json");
    expect(LittleWorkflowError.is(await caught(() => world.readArtifact(manifest.id)), "world.artifact_integrity")).toBe(true);
    expect(await world.writeArtifact(input)).toEqual(manifest);
    rmSync(join(world.paths.artifactBlobs, manifest.id));
    const missing = await caught(() => world.readArtifactText(manifest.id));
    expect(LittleWorkflowError.is(missing, "world.artifact_integrity")).toBe(true);
    expect((missing as Error).message).toContain("missing");
    await world.writeArtifact(input);
    expect(await world.readArtifactText(manifest.id)).toBe("hello");
    await world.close();
  });

  it("refuses a corrupt outer-loop manifest by name", async () => {
    const world = localWorld({ dataDir: freshDir() });
    writeFileSync(join(world.paths.outerLoops, "loop-1.json"), "[1,");
    expect(LittleWorkflowError.is(await caught(() => world.readOuterLoopManifest("loop-1")), "world.outer_loop_manifest_corrupt")).toBe(true);
    await world.close();
  });
});

describe("localWorld bad storage", () => {
  async function populated(): Promise<string> {
    const dataDir = freshDir();
    const world = localWorld({ dataDir });
    for (let index = 0; index < 40; index += 1) {
      await world.appendEvents(`run-${index}`, Array.from({ length: 10 }, () => ({ type: "Filler", payload: "x".repeat(2000) })));
    }
    await world.close();
    // Closing the last connection checkpoints the WAL into events.db and removes the WAL.
    expect(existsSync(join(dataDir, "events", "events.db-wal"))).toBe(false);
    return dataDir;
  }

  it("refuses a truncated events.db with a named error and leaves the file untouched", async () => {
    const dataDir = await populated();
    const path = join(dataDir, "events", "events.db");
    const size = readFileSync(path).byteLength;
    truncateSync(path, Math.floor(size / 2 / 4096) * 4096);
    const before = fileDigest(path);
    const error = await caught(() => localWorld({ dataDir }));
    expect(error).toBeInstanceOf(EventLogCorruptError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("truncated");
    expect(fileDigest(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("refuses a file cut mid-page, a file that is not SQLite, and a SQLite file that is not an event log", async () => {
    const dataDir = await populated();
    const path = join(dataDir, "events", "events.db");
    truncateSync(path, 10_000);
    expect(await caught(() => localWorld({ dataDir }))).toBeInstanceOf(EventLogCorruptError);
    writeFileSync(path, "this is not a database, just some text that is long enough to pass the size check ............");
    expect(await caught(() => localWorld({ dataDir }))).toBeInstanceOf(EventLogCorruptError);
    rmSync(path);
    const foreign = new Database(path);
    foreign.exec("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO events (body) VALUES ('mine')");
    foreign.close();
    const before = fileDigest(path);
    const error = await caught(() => localWorld({ dataDir }));
    expect(error).toBeInstanceOf(EventLogCorruptError);
    expect((error as Error).message).toContain("not an event log");
    expect(fileDigest(path)).toBe(before);
  });

  it("refuses a data dir it cannot create (a path below a regular file)", async () => {
    // Tests run as root here, for whom permission bits deny nothing; a path below a regular file
    // fails for every user (ENOTDIR), which is what this proves: the named error and its message.
    const file = join(root, "a-regular-file");
    writeFileSync(file, "not a folder");
    const error = await caught(() => localWorld({ dataDir: join(file, "data") }));
    expect(error).toBeInstanceOf(DataDirNotWritableError);
    expect(LittleWorkflowError.is(error, "world.data_dir_not_writable")).toBe(true);
    expect((error as Error).message).toContain(join(file, "data"));
    expect((error as Error).message).toContain("ENOTDIR");
    expect(readFileSync(file, "utf8")).toBe("not a folder");
  });

  it("refuses a data dir on read-only storage and leaves the data there readable and unchanged", async () => {
    const mountPoint = join(root, "read-only-mount");
    mkdirSync(mountPoint);
    const readOnly = makeReadOnlyCapable(mountPoint);
    try {
      const dataDir = join(mountPoint, "data");
      const world = localWorld({ dataDir });
      const stored = await world.appendEvents("run-1", [{ type: "RunStarted", payload: { n: 1 } }, { type: "StepCompleted", payload: {} }]);
      await world.close();
      readOnly.makeReadOnly();
      const eventsDb = join(dataDir, "events", "events.db");
      const before = fileDigest(eventsDb);
      const error = await caught(() => localWorld({ dataDir }));
      expect(error).toBeInstanceOf(DataDirNotWritableError);
      expect((error as Error).message).toMatch(readOnly.expectedCode);
      const fresh = await caught(() => localWorld({ dataDir: join(mountPoint, "never-created") }));
      expect(fresh).toBeInstanceOf(DataDirNotWritableError);
      expect((fresh as Error).message).toMatch(readOnly.expectedCode);
      readOnly.makeWritable();
      expect(fileDigest(eventsDb)).toBe(before);
      const reopened = localWorld({ dataDir });
      expect(await reopened.listEvents("run-1")).toEqual(stored);
      await reopened.close();
    } finally {
      readOnly.dispose();
    }
  });

  it("rejects options that cannot work", () => {
    expect(() => localWorld({ dataDir: freshDir(), durability: "fast" as never })).toThrow(/durability/);
    expect(() => localWorld({ dataDir: freshDir(), maxConcurrentSteps: 0 })).toThrow(/maxConcurrentSteps/);
    expect(() => localWorld({ dataDir: "" })).toThrow(/dataDir/);
  });

  it("exposes maxConcurrentSteps (default 8)", async () => {
    const configured = localWorld({ dataDir: freshDir(), maxConcurrentSteps: 3 });
    const defaulted = localWorld({ dataDir: freshDir() });
    expect([configured.maxConcurrentSteps, defaulted.maxConcurrentSteps]).toEqual([3, 8]);
    await configured.close();
    await defaulted.close();
  });
});
