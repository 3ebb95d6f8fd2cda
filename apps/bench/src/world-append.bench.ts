// Local World append and read costs, against raw better-sqlite3 doing the minimum equivalent work
// in the same process run: a single-row INSERT (autocommit) into a table with the same columns,
// primary key and pragmas (WAL, the same synchronous level), without the world's density trigger.
// For reference it also times the same insert into a WITHOUT ROWID table (the world's first
// layout, cheaper per row but pathological next to large payloads: see the local-world README).
//
//   pnpm --filter @little-stack-apps/bench run world
//   WORLD_BENCH_SCALE=0.2 … for a quicker, noisier run
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { localWorld, type Durability } from "@little-stack/local-world";

const scale = Number(process.env.WORLD_BENCH_SCALE ?? 1);
const root = mkdtempSync(join(tmpdir(), "world-append-bench-"));
const payload = {
  stepPath: "review[item%2E1].score",
  stepId: "score",
  attempt: 1,
  attemptId: "attempt_1",
  output: { score: 0.82, label: "keep", reasons: ["matches the brief", "cites sources"] },
};
const payloadJson = JSON.stringify(payload);

type Figures = { readonly operations: number; readonly milliseconds: number };
const perOperationMicros = (figures: Figures) => (figures.milliseconds * 1000) / figures.operations;
const perSecond = (figures: Figures) => (figures.operations / figures.milliseconds) * 1000;

function rawDatabase(path: string, durability: Durability, layout: "rowid" | "without rowid" = "rowid"): Database.Database {
  const database = new Database(path);
  database.pragma("busy_timeout = 10000");
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${durability === "strict" ? "FULL" : "NORMAL"}`);
  database.exec(`CREATE TABLE events (
    run_id TEXT NOT NULL, sequence INTEGER NOT NULL, event_id TEXT NOT NULL, type TEXT NOT NULL,
    recorded_at TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (run_id, sequence))${layout === "rowid" ? "" : " WITHOUT ROWID"}`);
  return database;
}

/** Runs the contenders in alternating slices so that disk and CPU noise hits them alike. */
async function interleaved(options: {
  readonly slices: number;
  readonly perSlice: number;
  readonly contenders: Record<string, (iteration: number) => unknown>;
}): Promise<Record<string, Figures>> {
  const totals: Record<string, Figures> = {};
  const counters: Record<string, number> = {};
  for (const name of Object.keys(options.contenders)) {
    totals[name] = { operations: 0, milliseconds: 0 };
    counters[name] = 0;
  }
  for (let slice = 0; slice < options.slices; slice += 1) {
    for (const [name, run] of Object.entries(options.contenders)) {
      const start = performance.now();
      for (let index = 0; index < options.perSlice; index += 1) {
        await run(counters[name]!);
        counters[name]! += 1;
      }
      const elapsed = performance.now() - start;
      totals[name] = { operations: totals[name]!.operations + options.perSlice, milliseconds: totals[name]!.milliseconds + elapsed };
    }
  }
  return totals;
}

const rows: string[][] = [];
const format = (value: number, digits = 1) => value.toFixed(digits);

for (const durability of ["strict", "process"] as const) {
  const raw = rawDatabase(join(root, `raw-${durability}.db`), durability);
  const insert = raw.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)");
  const rawWithoutRowid = rawDatabase(join(root, `raw-without-rowid-${durability}.db`), durability, "without rowid");
  const insertWithoutRowid = rawWithoutRowid.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)");
  // Each contender writes its own database, so no one pays for checkpoints another one caused.
  const rawBatchDatabase = rawDatabase(join(root, `raw-batch-${durability}.db`), durability);
  const insertInBatch = rawBatchDatabase.prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)");
  const rawBatch = rawBatchDatabase.transaction((first: number) => {
    const recordedAt = new Date().toISOString();
    for (let index = 0; index < 10; index += 1) {
      insertInBatch.run("run-raw", first + index, "evt_0000000000000000", "StepCompleted", recordedAt, payloadJson);
    }
  });
  const world = localWorld({ dataDir: join(root, `world-${durability}`), durability });
  const batchWorld = localWorld({ dataDir: join(root, `world-batch-${durability}`), durability });
  const batch = Array.from({ length: 10 }, () => ({ type: "StepCompleted", payload }));
  const operations = Math.max(20, Math.round((durability === "strict" ? 400 : 20_000) * scale));
  const slices = 10;
  const perSlice = Math.ceil(operations / slices);
  // Warm up both sides (statement caches, JIT, the first-write durability check).
  for (let index = 0; index < 50; index += 1) {
    insert.run("warm", index + 1, "evt_0000000000000000", "StepCompleted", new Date().toISOString(), payloadJson);
    insertWithoutRowid.run("warm", index + 1, "evt_0000000000000000", "StepCompleted", new Date().toISOString(), payloadJson);
    await world.appendEvents("warm", { type: "StepCompleted", payload });
    await batchWorld.appendEvents("warm", { type: "StepCompleted", payload });
  }
  const totals = await interleaved({
    slices,
    perSlice,
    contenders: {
      raw: (iteration) =>
        insert.run("run-raw", iteration + 1, "evt_0000000000000000", "StepCompleted", new Date().toISOString(), payloadJson),
      rawWithoutRowid: (iteration) =>
        insertWithoutRowid.run("run-raw", iteration + 1, "evt_0000000000000000", "StepCompleted", new Date().toISOString(), payloadJson),
      single: () => world.appendEvents("run-single", { type: "StepCompleted", payload }),
      rawBatch: (iteration) => rawBatch.immediate(iteration * 10 + 1),
      batch: () => batchWorld.appendEvents("run-batch", batch),
    },
  });
  const rawMicros = perOperationMicros(totals.raw!);
  const singleMicros = perOperationMicros(totals.single!);
  const batchMicros = perOperationMicros(totals.batch!);
  rows.push(
    [durability, "raw insert+commit", format(perSecond(totals.raw!), 0), format(rawMicros), "1.00"],
    [durability, "  (same, WITHOUT ROWID table)", format(perSecond(totals.rawWithoutRowid!), 0), format(perOperationMicros(totals.rawWithoutRowid!)), format(perOperationMicros(totals.rawWithoutRowid!) / rawMicros, 2)],
    [durability, "appendEvents(1)", format(perSecond(totals.single!), 0), format(singleMicros), format(singleMicros / rawMicros, 2)],
    [durability, "raw 10 inserts in one transaction", format(perSecond(totals.rawBatch!), 0), format(perOperationMicros(totals.rawBatch!)), format(perOperationMicros(totals.rawBatch!) / rawMicros, 2)],
    [durability, "appendEvents(10) per batch", format(perSecond(totals.batch!), 0), format(batchMicros), format(batchMicros / rawMicros, 2)],
    [durability, "  per event in the batch", format(perSecond(totals.batch!) * 10, 0), format(batchMicros / 10), format(batchMicros / 10 / rawMicros, 2)],
    [durability, "  batch of 10 / single append", "", "", format(batchMicros / singleMicros, 2)],
  );
  raw.close();
  rawWithoutRowid.close();
  rawBatchDatabase.close();
  await world.close();
  await batchWorld.close();
}

console.log(`\nDurable appends (${new Date().toISOString()}, Node ${process.versions.node})\n`);
const header = ["mode", "operation", "ops/s", "µs/op", "× raw"];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: readonly string[]) => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
console.log(line(header));
for (const row of rows) console.log(line(row));

// Reading one run of 100,000 events.
const eventCount = Math.max(1000, Math.round(100_000 * Math.min(1, scale)));
const readWorld = localWorld({ dataDir: join(root, "read"), durability: "process" });
for (let written = 0; written < eventCount; written += 1000) {
  await readWorld.appendEvents(
    "run-read",
    Array.from({ length: Math.min(1000, eventCount - written) }, (_, index) => ({ type: "StepCompleted", payload: { ...payload, index: written + index } })),
  );
}
const rawRead = new Database(readWorld.paths.eventsDb, { readonly: true });
const rawSelect = rawRead.prepare("SELECT sequence, event_id, type, recorded_at, payload FROM events WHERE run_id = ? ORDER BY sequence");
const best = async (work: () => unknown) => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    const start = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
};
const listMilliseconds = await best(async () => {
  const events = await readWorld.listEvents("run-read");
  if (events.length !== eventCount) throw new Error(`expected ${eventCount} events, got ${events.length}`);
});
const rawMilliseconds = await best(() => rawSelect.all("run-read"));
const rawParsedMilliseconds = await best(() => rawSelect.all("run-read").map((row) => JSON.parse((row as { payload: string }).payload)));
console.log(`\nlistEvents of a run with ${eventCount} events: ${format(listMilliseconds)} ms (best of 5; target < 1000 ms)`);
console.log(`  raw SELECT of the same rows: ${format(rawMilliseconds)} ms; raw SELECT + JSON.parse of payloads: ${format(rawParsedMilliseconds)} ms; ratio to the latter ${format(listMilliseconds / rawParsedMilliseconds, 2)}×`);
rawRead.close();
await readWorld.close();
rmSync(root, { recursive: true, force: true });
