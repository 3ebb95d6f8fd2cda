// Why a strict local world zero-fills its WAL at open (packages/local-world/src/wal-preallocation.ts):
// the same commits — SQLite at NORMAL, then an fdatasync of the WAL, what a strict world does per
// commit — into a WAL that grows with each commit (the baseline) and into one zero-filled ahead to
// the size it reaches before it wraps. One row of 60 bytes per commit (the raw baseline of the
// step-cost bench) and seven rows of a trivial tool.call step's sizes (~1.7 KB, what a step commits).
// Rounds interleave the four cases; each case gets a fresh database.
//
//   pnpm --filter @little-stack-apps/bench run wal-preallocation
//   WAL_BENCH_COMMITS=300 WAL_BENCH_ROUNDS=7 … to change the sizes
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { fmt, loadAverage, median, zeroFillWal } from "./step-cost-workload.js";

const commits = Number(process.env.WAL_BENCH_COMMITS ?? 300);
const rounds = Number(process.env.WAL_BENCH_ROUNDS ?? 7);
const root = mkdtempSync(join(tmpdir(), "wal-preallocation-bench-"));
/** Payload sizes of a trivial tool.call step's seven events (StepScheduled … StepCompleted). */
const stepRowSizes = [65, 106, 792, 114, 146, 167, 305];

let databases = 0;
/** µs per commit (insert + fdatasync of the WAL) over `commits` commits of `rowSizes` rows each. */
function commitCost(options: { readonly rowSizes: readonly number[]; readonly presized: boolean }): number {
  databases += 1;
  const path = join(root, `events-${databases}.db`);
  const database = new Database(path);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.exec("CREATE TABLE events (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (run_id, sequence))");
  if (options.presized) zeroFillWal(`${path}-wal`);
  const wal = openSync(`${path}-wal`, "r");
  const rows = options.rowSizes.length;
  const insert = database.prepare(`INSERT INTO events (run_id, sequence, type, payload) VALUES ${new Array(rows).fill("(?, ?, ?, ?)").join(", ")}`);
  const texts = options.rowSizes.map((size) => "x".repeat(size));
  const parameters: unknown[] = new Array(rows * 4);
  let sequence = 0;
  const start = performance.now();
  for (let commit = 0; commit < commits; commit += 1) {
    for (let row = 0; row < rows; row += 1) {
      sequence += 1;
      parameters[row * 4] = "run";
      parameters[row * 4 + 1] = sequence;
      parameters[row * 4 + 2] = "StepCompleted";
      parameters[row * 4 + 3] = texts[row];
    }
    insert.run(parameters);
    fdatasyncSync(wal);
  }
  const micros = ((performance.now() - start) / commits) * 1000;
  closeSync(wal);
  database.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  return micros;
}

console.log(`wal-preallocation benchmark: ${commits} commits per case, NORMAL + fdatasync of the WAL per commit, ${rounds} interleaved rounds; Node ${process.version}; load average ${loadAverage()}`);
const cases = [
  { name: "1 row, growing WAL", rowSizes: [60], presized: false },
  { name: "1 row, pre-sized WAL", rowSizes: [60], presized: true },
  { name: "7 rows, growing WAL", rowSizes: stepRowSizes, presized: false },
  { name: "7 rows, pre-sized WAL", rowSizes: stepRowSizes, presized: true },
] as const;
commitCost(cases[0]); // warm-up
const figures = new Map<string, number[]>(cases.map((entry) => [entry.name, []]));
for (let round = 0; round < rounds; round += 1) for (const entry of cases) figures.get(entry.name)!.push(commitCost(entry));
for (const [index, entry] of cases.entries()) {
  const values = figures.get(entry.name)!;
  const line = `${entry.name.padEnd(24)} ${fmt(median(values), 0)} µs/commit (rounds ${values.map((value) => fmt(value, 0)).join(", ")})`;
  if (!entry.presized) console.log(line);
  else {
    const growing = figures.get(cases[index - 1]!.name)!;
    const ratios = values.map((value, round) => value / growing[round]!);
    console.log(`${line} = ${fmt(median(ratios), 2)}× the growing WAL`);
  }
}
console.log(`load average at the end ${loadAverage()}`);
rmSync(root, { recursive: true, force: true });
