// Instructions per step, counted rather than timed: this VM's speed drifts by 1.5× within minutes,
// so a change of a few percent in the runtime's per-step work cannot be seen in a timing, but it
// can in a count. valgrind's cachegrind counts every instruction the process executes; V8 run with
// --single-threaded compiles and collects on the main thread at deterministic points, so the same
// build counts nearly the same run after run. The figure is the difference between a process
// running the 500-step chain three times and one running it once, divided by 1,000 steps: a warm
// run's instructions per step, its fixed per-run work and SQLite's share included (no fsyncs:
// process durability). It is a count, not a time, and valgrind's ~50× slowdown changes when
// time-driven work runs (a millisecond clock, the event loop's turns), so compare builds with it
// (AB_BASE) rather than reading it as a cost.
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

function valgrindAvailable(): boolean {
  return spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status === 0;
}

/** Instructions of one child process running the chain `runs` times. */
function count(options: { readonly tree: string; readonly lwirPath: string; readonly root: string; readonly runs: number }): number {
  const dataRoot = join(options.root, `data-${options.runs}`);
  const args = ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", process.execPath, "--single-threaded", child, options.tree, options.lwirPath, dataRoot, String(options.runs)];
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
