// The workload of issue 18's table, shared by the step-cost and peers benchmarks: N sequential
// trivial tool.call steps (each returns its input), run through the public API, and the raw
// better-sqlite3 baseline committing one row per step into a table of the world's layout.
import { execFile } from "node:child_process";
import { closeSync, existsSync, fstatSync, fsyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { LwirDocument } from "@little-stack/lwir";
import { defineWorkflow, localWorld, runWorkflow, type EventEnvelope, type World } from "@little-stack/workflow";
import { noopTools as noopToolRegistry } from "./tool-call-harness.js";

export type Durability = "strict" | "process";

export const noopTools = noopToolRegistry();

function documentOf(name: string, steps: readonly unknown[]): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { tools: ["noop"], models: [] },
    steps,
  } as unknown as LwirDocument;
}

/** `length` tool.call steps, each needing the one before. */
export function chainLwir(length: number, name = `chain-${length}`): LwirDocument {
  return documentOf(
    name,
    Array.from({ length }, (_, index) => ({
      id: `s${index}`,
      uses: "tool.call",
      needs: index === 0 ? [] : [`s${index - 1}`],
      with: { tool: "noop", args: { i: index } },
      output: { mode: "object", schema: { type: "object" } },
    })),
  );
}

/**
 * `length` tool.call steps like `chainLwir`'s whose arguments, and so whose outputs (`noop` returns
 * its input), carry a record of `fields` string fields (~14 KB at 200): what a step costs when its
 * tool returns what a real API returns, not `{ i }`.
 */
export function recordChainLwir(length: number, fields = 200): LwirDocument {
  const record: Record<string, string> = {};
  for (let field = 0; field < fields; field += 1) record[`field_${field}`] = `value number ${field} of a record that a real API would return`;
  const document = chainLwir(length, `record-chain-${length}`);
  const steps = (document.steps as unknown as { with: { args: { i: number } } }[]).map((step) => ({ ...step, with: { ...step.with, args: { ...step.with.args, record } } }));
  return { ...document, steps } as unknown as LwirDocument;
}

/** One parallel step over `input.items`, each branch one tool.call, all branches allowed in flight. */
export function fanOutLwir(branches: number, name = `fan-${branches}`): LwirDocument {
  return documentOf(name, [
    {
      id: "fan",
      uses: "parallel",
      with: {
        items: "{{ input.items }}",
        itemKey: "{{ item.i }}",
        cardinality: { kind: "matches_items" },
        maxBranches: branches,
        maxConcurrency: branches,
        failureMode: "all_settled",
        fanIn: { order: "input", output: "array" },
      },
      steps: [{ id: "work", uses: "tool.call", with: { tool: "noop", args: { i: "{{ item.i }}" } }, output: { mode: "object", schema: { type: "object" } } }],
      output: {
        mode: "array",
        schema: {
          type: "array",
          items: {
            type: "object",
            properties: { itemKey: { type: "string" }, status: { type: "string" }, output: {}, outputRef: { type: "string" }, error: {}, artifacts: { type: "array" } },
            required: ["itemKey", "status", "artifacts"],
          },
        },
      },
    },
  ]);
}

/** A fixed-plan workflow over `lwir` (the default worker harness, no model). */
export function fixedPlanWorkflow(lwir: LwirDocument) {
  return defineWorkflow({ id: lwir.metadata.name, input: { type: "object" }, output: { mode: "json" }, tools: ["noop"], plan: lwir });
}

export function benchRoot(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

let rawRuns = 0;
/**
 * ms for `rows` single-row transactions (one commit per step) into a fresh WAL database. With
 * `busyMs`, each commit comes after that much CPU work (a spin): a runtime does its step's work
 * between two commits, and on this VM an fdatasync issued after the device has been idle for a
 * while takes longer than one issued back to back, so this is the floor of any engine that spends
 * `busyMs` per step and syncs each step. With `presizedWal`, the WAL is zero-filled first to the
 * size a strict local world gives it (packages/local-world/src/wal-preallocation.ts), outside the
 * clock: the same commits into a WAL that does not grow.
 */
export function rawCommits(options: { readonly root: string; readonly rows: number; readonly durability: Durability; readonly busyMs?: number; readonly presizedWal?: boolean }): number {
  const { rows, durability } = options;
  const busyMs = options.busyMs ?? 0;
  rawRuns += 1;
  const path = join(options.root, `raw-${rawRuns}.db`);
  const database = new Database(path);
  database.pragma("journal_mode = WAL");
  database.pragma(`synchronous = ${durability === "strict" ? "FULL" : "NORMAL"}`);
  // The world's table layout (a rowid table keyed by (run_id, sequence)), without its trigger.
  database.exec("CREATE TABLE events (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (run_id, sequence))");
  if (options.presizedWal === true) zeroFillWal(`${path}-wal`);
  const insert = database.prepare("INSERT INTO events (run_id, sequence, type, payload) VALUES (?, ?, ?, ?)");
  const start = performance.now();
  for (let index = 0; index < rows; index += 1) {
    if (busyMs > 0) for (const until = performance.now() + busyMs; performance.now() < until; );
    insert.run("run", index + 1, "StepCompleted", JSON.stringify({ stepPath: `s${index}`, output: { i: index } }));
  }
  const ms = performance.now() - start;
  database.close();
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) rmSync(path + suffix);
  return ms;
}

/** Zeros appended to a WAL up to what a strict local world writes at open (1,064 frames of 4 KiB pages), synced. */
export function zeroFillWal(walPath: string): void {
  const descriptor = openSync(walPath, "r+");
  const size = fstatSync(descriptor).size;
  const missing = 32 + 1064 * (24 + 4096) - size;
  writeSync(descriptor, Buffer.alloc(missing), 0, missing, size);
  fsyncSync(descriptor);
  closeSync(descriptor);
}

let worldRuns = 0;
/** ms for one runWorkflow call over a fresh data dir (the world is opened before the clock starts). */
export async function runWorkflowOnce(options: {
  readonly root: string;
  readonly workflow: ReturnType<typeof fixedPlanWorkflow>;
  readonly input?: Record<string, unknown>;
  readonly durability: Durability;
  readonly maxConcurrentSteps?: number;
  /** Keep the data dir (and the world open) for a later resume. */
  readonly keep?: boolean;
}): Promise<{ ms: number; loggedMs: number; runId: string; dataDir: string; events: number }> {
  worldRuns += 1;
  const dataDir = join(options.root, `world-${worldRuns}`);
  const world = localWorld({ dataDir, durability: options.durability, maxConcurrentSteps: options.maxConcurrentSteps ?? 8 });
  const runId = `run-${worldRuns}`;
  const start = performance.now();
  const result = await runWorkflow(options.workflow, options.input ?? {}, { world, tools: noopTools, runId });
  const ms = performance.now() - start;
  // Read before the data dir goes: a long run's events are read from the world on first access.
  const events = result.events;
  await world.close();
  if (options.keep !== true) rmSync(dataDir, { recursive: true, force: true });
  return { ms, loggedMs: loggedRunMs(events), runId, dataDir, events: events.length };
}

/** fsync a marker file: a strace of the process shows where a measured section starts and ends. */
export function fsyncMarker(root: string, name: string): void {
  const fd = openSync(join(root, name), "w");
  fsyncSync(fd);
  closeSync(fd);
}

/**
 * The run's own time read off its log: RunStarted → RunCompleted (recordedAt, ms resolution), so a
 * child process's startup, module loading and argument checks are not in it.
 */
export function loggedRunMs(events: readonly Pick<EventEnvelope, "type" | "recordedAt">[]): number {
  const started = events.find((event) => event.type === "RunStarted");
  const completed = events.find((event) => event.type === "RunCompleted");
  if (started === undefined || completed === undefined) throw new Error("the run did not start and complete");
  return Date.parse(completed.recordedAt) - Date.parse(started.recordedAt);
}

const cliBin = fileURLToPath(new URL("../../../packages/cli/dist/bin.js", import.meta.url));
const cliTools = fileURLToPath(new URL("./noop-tools.mjs", import.meta.url));

/**
 * `little run` of `lwir` in a child process (the built dist/bin.js, piped stderr, so progress is
 * the `steps` mode), on a fresh data dir. Returns the child's wall time and the run's logged time.
 */
export async function littleRunOnce(options: { readonly root: string; readonly lwir: LwirDocument; readonly progress?: string }): Promise<{ wallMs: number; loggedMs: number; stderrLines: number }> {
  if (!existsSync(cliBin)) throw new Error(`${cliBin} is missing: run pnpm build first`);
  worldRuns += 1;
  const dir = join(options.root, `little-${worldRuns}`);
  const workflowPath = `${dir}.lwir.json`;
  const inputPath = `${dir}.input.json`;
  writeFileSync(workflowPath, JSON.stringify(options.lwir));
  writeFileSync(inputPath, "{}");
  const args = [cliBin, "run", workflowPath, "--input", inputPath, "--tools", cliTools, "--data-dir", dir, ...(options.progress === undefined ? [] : ["--progress", options.progress])];
  const start = performance.now();
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(process.execPath, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }, (error, out, err) => (error === null ? resolve({ stdout: out, stderr: err }) : reject(new Error(`little run failed: ${err.slice(0, 500)}`))));
  });
  const wallMs = performance.now() - start;
  const { runId } = JSON.parse(stdout) as { runId: string };
  const world = localWorld({ dataDir: dir, readOnly: true });
  const loggedMs = loggedRunMs(await world.listEvents(runId));
  await world.close();
  rmSync(dir, { recursive: true, force: true });
  return { wallMs, loggedMs, stderrLines: stderr === "" ? 0 : stderr.trimEnd().split("\n").length };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const fmt = (value: number, digits = 1): string => value.toFixed(digits);

export const loadAverage = (): string => loadavg().map((load) => load.toFixed(2)).join(" ");

/** A world whose calls are timed (their synchronous part: localWorld does its SQLite work inside the call). */
export function timedWorld(world: World): { world: World; elapsed: () => number } {
  let total = 0;
  const proxy = new Proxy(world, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function" || property === "close") return value;
      return (...args: unknown[]) => {
        const start = performance.now();
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          total += performance.now() - start;
        }
      };
    },
  });
  return { world: proxy, elapsed: () => total };
}
