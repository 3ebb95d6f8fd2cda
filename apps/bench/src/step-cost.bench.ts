// What a step costs through the public API (issue 18): runWorkflow with the default worker
// harness on a fixed plan, against raw better-sqlite3 committing one row per step in the same
// process, rounds interleaved so load hits both sides.
//   1. per sequential trivial tool.call step, strict and process durability; the runtime's own
//      JavaScript per step (process mode, minus the time spent inside the world's calls)
//   2. `little run` (the built CLI in a child process) against runWorkflow in a fresh plain node
//      process (cold-run-workflow.mjs), per step: the run's own time read off its log (RunStarted →
//      RunCompleted), so the children's startup is not in it; wall times printed beside
//   3. fsyncs per step (strace of a child process, when strace is installed), and those of a whole
//      3-step run; what a 3-step run takes
//   4. re-running a completed 200-step run (its result; and with every event asked for)
//   5. a 100-branch fan-out with every branch in flight
//   6. a step whose tool returns a 14 KB record, beside the trivial step
// Mastra's and LangGraph's rows: step-cost-peers.bench.ts. CLI start-up: cli-startup.bench.ts.
// The memory of a 10,000-step run (issue 18 item 5): long-run-memory.bench.ts.
//
//   pnpm build && pnpm --filter @little-stack-apps/bench run step-cost      (against the built dist/)
//   STEP_COST_STEPS=200 STEP_COST_ROUNDS=5 STEP_COST_WARMUP_RUNS=10 … to change the sizes
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "@little-stack/canonical";
import { localWorld, runWorkflow } from "@little-stack/workflow";
import {
  benchRoot,
  chainLwir,
  fanOutLwir,
  recordChainLwir,
  fixedPlanWorkflow,
  fmt,
  fsyncMarker,
  littleRunOnce,
  loadAverage,
  median,
  noopTools,
  rawCommits,
  runWorkflowOnce,
  timedWorld,
  type Durability,
} from "./step-cost-workload.js";

const steps = Number(process.env.STEP_COST_STEPS ?? 200);
const rounds = Number(process.env.STEP_COST_ROUNDS ?? 5);
/** Runs of each durability before the measured rounds (see the warm-up in main). */
const warmUpRuns = Number(process.env.STEP_COST_WARMUP_RUNS ?? 10);
/** The short run of item 3: a workflow of a few steps, where the compile and the run's start weigh most. */
const shortSteps = 3;
const self = fileURLToPath(import.meta.url);
const coldRunScript = fileURLToPath(new URL("./cold-run-workflow.mjs", import.meta.url));

async function child(kind: string): Promise<void> {
  const root = benchRoot("step-cost-child-");
  if (kind === "fsync") {
    const durability = (process.env.STEP_COST_DURABILITY ?? "strict") as Durability;
    const workflow = fixedPlanWorkflow(chainLwir(steps));
    await runWorkflowOnce({ root, workflow, durability }); // warm-up, not counted
    const world = localWorld({ dataDir: join(root, "counted"), durability });
    fsyncMarker(root, "measure-start");
    await runWorkflow(workflow, {}, { world, tools: noopTools, runId: "counted" });
    fsyncMarker(root, "measure-end");
    await world.close();
    fsyncMarker(root, "raw-start");
    rawCommits({ root, rows: steps, durability });
    fsyncMarker(root, "raw-end");
    // A short run: what its compile, start and end cost beside its steps.
    const shortWorld = localWorld({ dataDir: join(root, "short"), durability });
    fsyncMarker(root, "short-start");
    await runWorkflow(fixedPlanWorkflow(chainLwir(shortSteps)), {}, { world: shortWorld, tools: noopTools, runId: "short" });
    fsyncMarker(root, "short-end");
    await shortWorld.close();
  } else if (kind === "cold") {
    // One runWorkflow in a fresh process under this bench's loader (tsx): printed beside the plain one.
    const run = await runWorkflowOnce({ root, workflow: fixedPlanWorkflow(chainLwir(steps)), durability: "strict" });
    process.stdout.write(JSON.stringify({ loggedMs: run.loggedMs }));
  }
  rmSync(root, { recursive: true, force: true });
}

/** A process-mode run with its world's calls timed: the run's time, the world's part, the rest per step in µs. */
async function timedProcessRun(root: string, workflow: ReturnType<typeof fixedPlanWorkflow>, runId: string): Promise<{ ms: number; worldMs: number; jsPerStep: number }> {
  const dataDir = join(root, runId);
  const timed = timedWorld(localWorld({ dataDir, durability: "process" }));
  const start = performance.now();
  await runWorkflow(workflow, {}, { world: timed.world, tools: noopTools, runId });
  const ms = performance.now() - start;
  const worldMs = timed.elapsed();
  await timed.world.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { ms, worldMs, jsPerStep: ((ms - worldMs) / steps) * 1000 };
}

/** fsync/fdatasync calls between two markers of a strace log. */
function countBetween(log: string, startMarker: string, endMarker: string): number {
  let counting = false;
  let count = 0;
  for (const line of log.split("\n")) {
    if (line.includes(startMarker)) counting = true;
    else if (line.includes(endMarker)) counting = false;
    else if (counting && /\b(fsync|fdatasync)\(/.test(line)) count += 1;
  }
  return count;
}

function fsyncsPerStep(durability: Durability): { ours: number; raw: number; short: number } | string {
  try {
    execFileSync("strace", ["-V"], { stdio: "ignore" });
  } catch {
    return "strace is not installed (apt-get install strace): fsyncs per step not counted";
  }
  const logPath = join(benchRoot("step-cost-strace-"), "strace.log");
  const run = spawnSync("strace", ["-f", "-qq", "-y", "-e", "trace=fsync,fdatasync", "-o", logPath, process.execPath, ...process.execArgv, self], {
    env: { ...process.env, STEP_COST_CHILD: "fsync", STEP_COST_DURABILITY: durability },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (run.status !== 0) return `the strace child failed (exit ${String(run.status)})`;
  const log = readFileSync(logPath, "utf8");
  return { ours: countBetween(log, "measure-start", "measure-end") / steps, raw: countBetween(log, "raw-start", "raw-end") / steps, short: countBetween(log, "short-start", "short-end") };
}

async function main(): Promise<void> {
  console.log(`step-cost benchmark: ${steps} sequential trivial tool.call steps, runWorkflow (fixed plan, default harness), fresh data dir per run, ${rounds} interleaved rounds; Node ${process.version}; load average ${loadAverage()}`);
  const root = benchRoot("step-cost-");
  const workflow = fixedPlanWorkflow(chainLwir(steps));

  // Warm-up of both sides (JIT, statement caches, the first-write checks): printed, not counted.
  // V8 optimizes a function once it has run a few thousand times, and much of the step path runs
  // once per step: after three runs of each durability (1,200 steps) the per-round figures still
  // fell through the first five rounds (122, 104, 101, 107, 104, then 86–96 µs of JavaScript per
  // step in rounds 6–16 of one run). So the warm-up runs `warmUpRuns` of each (2,000 steps at the
  // default size) and prints the process-mode figure of each, where the settling shows.
  const warmRaw = rawCommits({ root, rows: steps, durability: "strict" });
  const warm = await runWorkflowOnce({ root, workflow, durability: "strict" });
  const warmJs = [(await timedProcessRun(root, workflow, "warm-0")).jsPerStep];
  for (let run = 1; run < warmUpRuns; run += 1) {
    rawCommits({ root, rows: steps, durability: "strict" });
    await runWorkflowOnce({ root, workflow, durability: "strict" });
    warmJs.push((await timedProcessRun(root, workflow, `warm-${run}`)).jsPerStep);
  }
  console.log(
    `0. warm-up: a cold ${steps}-step run ${fmt(warm.ms, 0)} ms vs raw ${fmt(warmRaw, 0)} ms; ${fmt(warm.events / steps, 2)} events/step (${warm.events} in the run); the runtime's own JavaScript in the ${warmUpRuns} process-mode warm-up runs ${warmJs.map((us) => fmt(us, 0)).join(", ")} µs/step`,
  );

  // 1. Per step, strict and process, interleaved with the raw commits of the same durability.
  const rows: Record<string, number[]> = { rawStrict: [], strict: [], rawProcess: [], rawPresized: [], process: [], processWorldMs: [], rawStrictBusy: [] };
  for (let round = 0; round < rounds; round += 1) {
    rows.rawStrict!.push(rawCommits({ root, rows: steps, durability: "strict" }));
    rows.strict!.push((await runWorkflowOnce({ root, workflow, durability: "strict" })).ms);
    rows.rawProcess!.push(rawCommits({ root, rows: steps, durability: "process" }));
    rows.rawPresized!.push(rawCommits({ root, rows: steps, durability: "strict", presizedWal: true }));
    const timed = await timedProcessRun(root, workflow, `timed-${round}`);
    rows.process!.push(timed.ms);
    rows.processWorldMs!.push(timed.worldMs);
    // The same FULL commits, each after as much CPU as this round's process-mode step took.
    rows.rawStrictBusy!.push(rawCommits({ root, rows: steps, durability: "strict", busyMs: rows.process!.at(-1)! / steps }));
  }
  const perStep = (ms: number): string => `${fmt(ms / steps, 3)} ms`;
  const strictRatios = rows.strict!.map((ms, index) => ms / rows.rawStrict![index]!);
  const processRatios = rows.process!.map((ms, index) => ms / rows.rawStrict![index]!);
  console.log(`1. per step: raw better-sqlite3 FULL commit ${perStep(median(rows.rawStrict!))}, NORMAL ${perStep(median(rows.rawProcess!))}`);
  console.log(`   runWorkflow strict:  ${perStep(median(rows.strict!))}/step = ${fmt(median(strictRatios), 2)}× raw FULL (rounds ${strictRatios.map((r) => fmt(r, 2)).join(", ")}; target ≤ 2×)`);
  const presizedRatios = rows.strict!.map((ms, index) => ms / rows.rawPresized![index]!);
  console.log(
    `   raw FULL commit into a pre-sized WAL (zero-filled first, as a strict world's): ${perStep(median(rows.rawPresized!))}/step; runWorkflow strict = ${fmt(median(presizedRatios), 2)}× this (rounds ${presizedRatios.map((r) => fmt(r, 2)).join(", ")})`,
  );
  console.log(`   runWorkflow process: ${perStep(median(rows.process!))}/step = ${fmt(median(processRatios), 2)}× raw FULL (target ≤ half of Mastra's per step: see the peers bench)`);
  const busyRatios = rows.strict!.map((ms, index) => ms / rows.rawStrictBusy![index]!);
  const fullAfterBusy = rows.rawStrictBusy!.map((ms, index) => (ms - rows.process![index]!) / steps);
  console.log(
    `   raw FULL commit after ${perStep(median(rows.process!))} of CPU (the process-mode step of the round): ${perStep(median(rows.rawStrictBusy!))}/step, of which the commit ${fmt(median(fullAfterBusy), 3)} ms (back to back ${perStep(median(rows.rawStrict!))}); runWorkflow strict = ${fmt(median(busyRatios), 2)}× this (rounds ${busyRatios.map((r) => fmt(r, 2)).join(", ")})`,
  );
  const jsPerStep = rows.process!.map((ms, index) => ((ms - rows.processWorldMs![index]!) / steps) * 1000);
  console.log(
    `   process mode: ${fmt((median(rows.processWorldMs!) / steps) * 1000, 0)} µs/step inside the world's calls, ${fmt(median(jsPerStep), 0)} µs/step of the runtime's own JavaScript (rounds ${jsPerStep.map((us) => fmt(us, 0)).join(", ")}; target ≤ 100 µs)`,
  );

  // 2. little run vs runWorkflow, both strict (the CLI's default), the run's logged time per step.
  // A CLI process runs one run, JIT-cold: it is compared with runWorkflow run once in a fresh
  // plain `node` process running the built dist/ (cold-run-workflow.mjs), like for like. The same
  // run in a child under this bench's TypeScript loader (tsx) is printed beside it: that loader's
  // work before the run grows V8's young generation, so its run meets fewer, cheaper scavenges than
  // any plain process does (measured: `little run` with --min-semi-space-size=16 runs as fast).
  const lwir = chainLwir(steps);
  const lwirPath = join(root, "chain.lwir.json");
  writeFileSync(lwirPath, JSON.stringify(lwir));
  let plainRuns = 0;
  const plainRunWorkflow = (): number => {
    plainRuns += 1;
    const dataDir = join(root, `plain-${plainRuns}`);
    const child = spawnSync(process.execPath, [coldRunScript, lwirPath, dataDir], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    if (child.status !== 0) throw new Error(`the plain runWorkflow child failed (exit ${String(child.status)})`);
    rmSync(dataDir, { recursive: true, force: true });
    return (JSON.parse(child.stdout) as { loggedMs: number }).loggedMs;
  };
  const tsxRunWorkflow = (): number => {
    const child = spawnSync(process.execPath, [...process.execArgv, self], { env: { ...process.env, STEP_COST_CHILD: "cold" }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    if (child.status !== 0) throw new Error(`the cold runWorkflow child failed (exit ${String(child.status)})`);
    return (JSON.parse(child.stdout) as { loggedMs: number }).loggedMs;
  };
  await littleRunOnce({ root, lwir }); // warm-up (disk cache of the modules)
  plainRunWorkflow();
  tsxRunWorkflow();
  const cli: Record<"little" | "littleNone" | "littleWall" | "plain" | "tsx" | "warm", number[]> & { lines: number } = { little: [], littleNone: [], littleWall: [], plain: [], tsx: [], warm: [], lines: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const little = await littleRunOnce({ root, lwir });
    cli.little.push(little.loggedMs);
    cli.littleWall.push(little.wallMs);
    cli.lines = little.stderrLines;
    cli.plain.push(plainRunWorkflow());
    cli.littleNone.push((await littleRunOnce({ root, lwir, progress: "none" })).loggedMs);
    cli.tsx.push(tsxRunWorkflow());
    cli.warm.push((await runWorkflowOnce({ root, workflow, durability: "strict" })).loggedMs);
  }
  const ratiosTo = (other: number[], of = cli.little): number[] => of.map((ms, index) => ms / other[index]!);
  const plainRatios = ratiosTo(cli.plain);
  console.log(
    `2. little run (child process, strict, piped: --progress steps): ${perStep(median(cli.little))}/step from its log; runWorkflow once in a fresh plain node process ${perStep(median(cli.plain))}/step: ${fmt(median(plainRatios), 2)}× (rounds ${plainRatios.map((r) => fmt(r, 2)).join(", ")}; target ≤ 1.15×)`,
  );
  console.log(
    `   little run --progress none ${perStep(median(cli.littleNone))}/step: ${fmt(median(ratiosTo(cli.plain, cli.littleNone)), 2)}× the plain process; runWorkflow in a child under tsx ${perStep(median(cli.tsx))}/step (little run ${fmt(median(ratiosTo(cli.tsx)), 2)}× that); warm runWorkflow in this process ${perStep(median(cli.warm))}/step (${fmt(median(ratiosTo(cli.warm)), 2)}×)`,
  );
  console.log(`   wall of the little run child ${fmt(median(cli.littleWall), 0)} ms; ${cli.lines} stderr lines for ${steps} steps`);

  // 3. fsyncs per step.
  const fsyncs = fsyncsPerStep("strict");
  console.log(
    typeof fsyncs === "string"
      ? `3. ${fsyncs}`
      : `3. fsyncs/step (strict, strace): runWorkflow ${fmt(fsyncs.ours, 2)}, raw ${fmt(fsyncs.raw, 2)}; a whole ${shortSteps}-step runWorkflow: ${fsyncs.short} fsyncs (one per step and one for RunCompleted: the compile and RunStarted ride with the first step's)`,
  );
  const short = fixedPlanWorkflow(chainLwir(shortSteps));
  const shortRuns: Record<Durability, number[]> = { strict: [], process: [] };
  for (let round = 0; round < rounds * 4; round += 1) {
    for (const durability of ["strict", "process"] as const) shortRuns[durability].push((await runWorkflowOnce({ root, workflow: short, durability })).ms);
  }
  console.log(`   a ${shortSteps}-step runWorkflow (compile of the fixed plan included): strict ${fmt(median(shortRuns.strict), 2)} ms, process ${fmt(median(shortRuns.process), 2)} ms (medians of ${rounds * 4})`);

  // 4. Re-running a completed run.
  const done = await runWorkflowOnce({ root, workflow, durability: "strict", keep: true });
  const doneWorld = localWorld({ dataDir: done.dataDir });
  const resumes: number[] = [];
  let resumedEvents = 0;
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    const result = await runWorkflow(workflow, {}, { world: doneWorld, tools: noopTools, runId: done.runId });
    resumes.push(performance.now() - start);
    resumedEvents = result.events.length;
  }
  const withEvents: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    const events = await doneWorld.listEvents(done.runId);
    withEvents.push(performance.now() - start);
    if (events.length === 0) throw new Error("the completed run has no events");
  }
  await doneWorld.close();
  console.log(`4. re-running a completed ${steps}-step run: median ${fmt(median(resumes), 2)} ms (target ≤ 10 ms; result.events: ${resumedEvents}); all its events read back: ${fmt(median(withEvents), 2)} ms`);

  // 5. 100-branch fan-out, every branch in flight.
  const fan = fixedPlanWorkflow(fanOutLwir(100));
  const items = Array.from({ length: 100 }, (_, i) => ({ i }));
  for (const durability of ["strict", "process"] as const) {
    await runWorkflowOnce({ root, workflow: fan, input: { items }, durability, maxConcurrentSteps: 100 }); // warm-up
    const fans: number[] = [];
    for (let round = 0; round < rounds; round += 1) fans.push((await runWorkflowOnce({ root, workflow: fan, input: { items }, durability, maxConcurrentSteps: 100 })).ms);
    console.log(`5. 100-branch fan-out (${durability}, maxConcurrentSteps 100): median ${fmt(median(fans), 1)} ms (rounds ${fans.map((ms) => fmt(ms, 0)).join(", ")}; target ≤ 1.5× Mastra's .foreach, see the peers bench)`);
  }

  // 6. A step whose tool returns a 14 KB record (200 string fields): process mode, the runtime's
  // own JavaScript and the world's calls per step, beside the trivial step in the same rounds.
  const recordChain = fixedPlanWorkflow(recordChainLwir(steps));
  const record: Record<"trivial" | "record", { js: number[]; world: number[] }> = { trivial: { js: [], world: [] }, record: { js: [], world: [] } };
  for (let round = 0; round < rounds + 2; round += 1) {
    for (const [kind, chosen] of [["trivial", workflow], ["record", recordChain]] as const) {
      const timed = await timedProcessRun(root, chosen, `${kind}-${round}`);
      if (round < 2) continue; // warm-up of the record chain
      record[kind].js.push(timed.jsPerStep);
      record[kind].world.push((timed.worldMs / steps) * 1000);
    }
  }
  const outputChars = canonicalJson((recordChainLwir(1).steps[0] as { with: { args: unknown } }).with.args).length;
  console.log(
    `6. a step returning a ${fmt(outputChars / 1000, 1)} KB record (process): ${fmt(median(record.record.js), 0)} µs/step of runtime JavaScript, ${fmt(median(record.record.world), 0)} µs/step in the world's calls; the trivial step in the same rounds ${fmt(median(record.trivial.js), 0)} and ${fmt(median(record.trivial.world), 0)} µs`,
  );

  console.log(`load average at the end ${loadAverage()}`);
  rmSync(root, { recursive: true, force: true });
}

if (process.env.STEP_COST_CHILD !== undefined) await child(process.env.STEP_COST_CHILD);
else await main();
