// Instructions per step, counted rather than timed: this VM's speed drifts by 1.5× within minutes,
// so a change of a few percent in the runtime's per-step work cannot be seen in a timing; a count
// narrows it. valgrind's cachegrind counts every instruction the process executes. The child runs
// the 500-step chain three times or once, with a full collection before each run, under
// `node --single-threaded --predictable` (V8 compiles and collects on the main thread, seeds
// fixed); the figure is the difference over 1,000 warm steps: a warm run's instructions per step,
// its fixed per-run work and SQLite's share included (process durability: no fsyncs).
// It still is not exact: valgrind runs ~50× slower, so time-driven work (the runtime's event-loop
// turn every 10 ms, a millisecond clock) lands differently from one process to the next. Repeats
// of one build measured 0.3% apart on some runs and up to 5% on others: use several repeats, and
// read a difference under ~5% as noise. It ranks changes; it does not price them.
//
//   pnpm build && pnpm --filter @little-stack-apps/bench run step-instructions
//   AB_BASE=/tmp/base …   also count another build (a worktree built with npx tsc -b) and print the ratio
//   INSTRUCTIONS_STEPS=500 INSTRUCTIONS_REPEATS=2 …
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchRoot, chainLwir, fmt, loadAverage } from "./step-cost-workload.js";

const steps = Number(process.env.INSTRUCTIONS_STEPS ?? 500);
const repeats = Number(process.env.INSTRUCTIONS_REPEATS ?? 2);
const basePath = process.env.AB_BASE;
const child = fileURLToPath(new URL("./instructions-child.mjs", import.meta.url));
const thisTree = fileURLToPath(new URL("../../..", import.meta.url));
const nodeFlags = (process.env.INSTRUCTIONS_NODE_FLAGS ?? "--single-threaded --predictable --expose-gc").split(" ").filter((flag) => flag !== "");

function valgrindAvailable(): boolean {
  return spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status === 0;
}

/** Instructions of one child process running the chain `runs` times. */
function count(options: { readonly tree: string; readonly lwirPath: string; readonly root: string; readonly runs: number }): number {
  const dataRoot = join(options.root, `data-${options.runs}`);
  const args = ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", process.execPath, ...nodeFlags, child, options.tree, options.lwirPath, dataRoot, String(options.runs)];
  const result = spawnSync("valgrind", args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  rmSync(dataRoot, { recursive: true, force: true });
  const match = /I\s+refs:\s+([\d,]+)/.exec(result.stderr);
  if (result.status !== 0 || match === null) throw new Error(`valgrind failed (exit ${String(result.status)}):\n${result.stderr.slice(-2000)}`);
  return Number(match[1]!.replaceAll(",", ""));
}

/** A warm run's instructions per step: (three runs − one run) / (2 × steps). */
function perStep(options: { readonly tree: string; readonly lwirPath: string; readonly root: string }): number {
  return (count({ ...options, runs: 3 }) - count({ ...options, runs: 1 })) / (2 * steps);
}

function main(): void {
  if (!valgrindAvailable()) {
    console.log("step-instructions: valgrind is not installed (apt-get install valgrind); nothing measured");
    return;
  }
  const baseEntry = basePath === undefined ? undefined : join(basePath, "packages/workflow/dist/index.js");
  if (baseEntry !== undefined && !existsSync(baseEntry)) throw new Error(`${baseEntry} is missing: build the base worktree (npx tsc -b) first`);
  console.log(`step-instructions: ${steps}-step chains, process durability, node --single-threaded under cachegrind, ${repeats} repeat(s)${baseEntry === undefined ? "" : `, base ${basePath}`}; Node ${process.version}; load average ${loadAverage()}`);
  const root = benchRoot("step-instructions-");
  const lwirPath = join(root, "chain.lwir.json");
  writeFileSync(lwirPath, JSON.stringify(chainLwir(steps)));
  const figures = { current: [] as number[], base: [] as number[] };
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    figures.current.push(perStep({ tree: thisTree, lwirPath, root }));
    if (basePath !== undefined) figures.base.push(perStep({ tree: basePath, lwirPath, root }));
  }
  rmSync(root, { recursive: true, force: true });
  const thousands = (values: readonly number[]): string => values.map((value) => `${fmt(value / 1000, 1)} k`).join(", ");
  console.log(`instructions per warm step, this tree: ${thousands(figures.current)}`);
  if (baseEntry === undefined) return;
  console.log(`instructions per warm step, base: ${thousands(figures.base)}`);
  const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  console.log(`this tree ÷ base: ${fmt(mean(figures.current) / mean(figures.base), 3)}`);
}

main();
