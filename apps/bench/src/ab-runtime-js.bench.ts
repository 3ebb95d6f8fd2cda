// A against B in one process: the runtime JavaScript per step of another build of the SDK (a
// second worktree, built) against this tree's, on the step-cost workload. This VM's speed drifts
// by more than the changes worth measuring, between minutes; runs of the two builds alternate
// here, so both meet the same drift, and the figure is their ratio per round.
//
//   git worktree add /tmp/base <commit> && (cd /tmp/base && pnpm install --offline && npx tsc -b)
//   npx tsc -b packages/workflow     (this tree's dist/)
//   AB_BASE=/tmp/base node --expose-gc --import tsx src/ab-runtime-js.bench.ts
//   AB_STEPS=200 AB_ROUNDS=30 AB_DURABILITY=strict …
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

async function main(): Promise<void> {
  if (basePath === undefined) {
    console.log("ab-runtime-js: set AB_BASE to a built worktree of the build to compare with (see the header of this file); nothing measured");
    return;
  }
  const baseEntry = join(basePath, "packages/workflow/dist/index.js");
  if (!existsSync(baseEntry)) throw new Error(`${baseEntry} is missing: build the base worktree (npx tsc -b) first`);
  const base = (await import(pathToFileURL(baseEntry).href)) as Sdk;
  const gc = (globalThis as { gc?: () => void }).gc;
  console.log(`ab-runtime-js: ${steps}-step chains, ${durability}, ${rounds} rounds (+2 warm-up), base ${basePath} vs this tree; Node ${process.version}; load average ${loadAverage()}${gc === undefined ? "; run with --expose-gc to collect between runs" : ""}`);
  const root = benchRoot("ab-runtime-js-");
  const lwir = chainLwir(steps);
  const figures = { base: [] as number[], current: [] as number[] };
  let runs = 0;
  for (let round = 0; round < rounds + 2; round += 1) {
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
      if (round >= 2) figures[side].push(((ms - timed.elapsed()) / steps) * 1000);
    }
  }
  rmSync(root, { recursive: true, force: true });
  const ratios = figures.current.map((us, index) => us / figures.base[index]!);
  console.log(`runtime JavaScript per step: base ${fmt(median(figures.base), 0)} µs, this tree ${fmt(median(figures.current), 0)} µs`);
  console.log(`this tree ÷ base per round: ${ratios.map((ratio) => fmt(ratio, 2)).join(" ")}; median ${fmt(median(ratios), 3)}`);
}

await main();
