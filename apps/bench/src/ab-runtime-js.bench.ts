// A against B in one process: the runtime JavaScript per step of another build of the SDK (a
// second worktree, built) against this tree's, on the step-cost workload. This VM's speed drifts
// by more than the changes worth measuring, between minutes; runs of the two builds alternate
// here, so both meet the same drift, and the figure is their ratio per round.
//
//   git worktree add /tmp/base <commit> && (cd /tmp/base && pnpm install --offline && npx tsc -b)
//   npx tsc -b packages/workflow     (this tree's dist/)
//   AB_BASE=/tmp/base node --expose-gc --import tsx src/ab-runtime-js.bench.ts
//   AB_STEPS=200 AB_ROUNDS=30 AB_WARMUP_ROUNDS=15 AB_DURABILITY=strict …
//   AB_GC=1 …   a full collection (node --expose-gc) before each run
//
// No full collection before a run by default: a forced one (`gc()`) took the runs after it from
// ~85 to ~175 µs of JavaScript per step, for the whole run (1,000 steps too), in this process or
// in the base's. It kills the maps of objects no longer alive (the last run's envelopes, held
// events, sessions), V8 deoptimizes every function whose optimized code embeds one ("weak
// objects"), and a function called once or twice per step runs unoptimized until it has been
// called a few thousand times again (--trace-deopt). That measured V8's recovery, not the build.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as current from "@little-stack/workflow";
import { benchRoot, chainLwir, fmt, loadAverage, median, noopTools, timedWorld, type Durability } from "./step-cost-workload.js";

type Sdk = Pick<typeof current, "defineWorkflow" | "localWorld" | "runWorkflow">;

const basePath = process.env.AB_BASE;
const steps = Number(process.env.AB_STEPS ?? 2000);
const rounds = Number(process.env.AB_ROUNDS ?? 8);
const durability = (process.env.AB_DURABILITY ?? "process") as Durability;
/**
 * Rounds run before the counted ones. V8 optimizes a function called once per step only after a
 * few thousand calls: with 2 warm-up rounds of 200 steps both builds read ~170 µs per step, where
 * `step-cost` (warmed 2,000 steps) reads ~95 on the same machine in the same minutes.
 */
const warmUpRounds = Number(process.env.AB_WARMUP_ROUNDS ?? Math.max(2, Math.ceil(3000 / steps)));

async function main(): Promise<void> {
  if (basePath === undefined) {
    console.log("ab-runtime-js: set AB_BASE to a built worktree of the build to compare with (see the header of this file); nothing measured");
    return;
  }
  const baseEntry = join(basePath, "packages/workflow/dist/index.js");
  if (!existsSync(baseEntry)) throw new Error(`${baseEntry} is missing: build the base worktree (npx tsc -b) first`);
  const base = (await import(pathToFileURL(baseEntry).href)) as Sdk;
  const gc = process.env.AB_GC === "1" ? (globalThis as { gc?: () => void }).gc : undefined;
  console.log(`ab-runtime-js: ${steps}-step chains, ${durability}, ${rounds} rounds (+${warmUpRounds} warm-up), base ${basePath} vs this tree; Node ${process.version}; load average ${loadAverage()}${gc === undefined ? "" : "; a full collection before each run (AB_GC=1)"}`);
  const root = benchRoot("ab-runtime-js-");
  const lwir = chainLwir(steps);
  const figures = { base: [] as number[], current: [] as number[] };
  let runs = 0;
  for (let round = 0; round < rounds + warmUpRounds; round += 1) {
    const sides: [keyof typeof figures, Sdk][] = [
      ["base", base],
      ["current", current],
    ];
    // Which side goes first alternates: the second run of a pair meets the first one's garbage.
    if (round % 2 === 1) sides.reverse();
    for (const [side, sdk] of sides) {
      gc?.();
      runs += 1;
      const workflow = sdk.defineWorkflow({ id: lwir.metadata.name, input: { type: "object" }, output: { mode: "json" }, tools: ["noop"], plan: lwir });
      const dataDir = join(root, `run-${runs}`);
      const timed = timedWorld(sdk.localWorld({ dataDir, durability }));
      const start = performance.now();
      await sdk.runWorkflow(workflow, {}, { world: timed.world, tools: noopTools, runId: `run-${runs}` });
      const ms = performance.now() - start;
      await timed.world.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (round >= warmUpRounds) figures[side].push(((ms - timed.elapsed()) / steps) * 1000);
    }
  }
  rmSync(root, { recursive: true, force: true });
  const ratios = figures.current.map((us, index) => us / figures.base[index]!);
  console.log(`runtime JavaScript per step: base ${fmt(median(figures.base), 0)} µs, this tree ${fmt(median(figures.current), 0)} µs`);
  console.log(`this tree ÷ base per round: ${ratios.map((ratio) => fmt(ratio, 2)).join(" ")}; median ${fmt(median(ratios), 3)}`);
}

await main();
