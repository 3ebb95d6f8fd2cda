// What else in the process waits while a run's steps run: a chain of N sequential trivial
// tool.call steps through runWorkflow (default harness, localWorld, fresh data dir each round)
// never waits on I/O — better-sqlite3 is synchronous and the tool answers at once — so without
// the runtime's turns (runtime/src/execution/event-loop-turn.ts) no timer, socket or signal
// handler ran until the run ended. Printed against a baseline in the same process: the event
// longest wait of a 10 ms interval timer while the process only waits, for as long as the run took.
//
//   pnpm --filter @little-stack-apps/bench run event-loop-lag        (LAG_STEPS=2000, LAG_ROUNDS=3)
//
// Also: how long after an abort a 20,000-step run ends (before the turns, it ran to its end).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { localWorld, runWorkflow } from "@little-stack/workflow";
import { benchRoot, chainLwir, fixedPlanWorkflow, fmt, loadAverage, median, runWorkflowOnce, type Durability } from "./step-cost-workload.js";
import { noopTools } from "./tool-call-harness.js";

type Lag = { readonly longestGapMs: number; readonly ticks: number };

const tickMs = 10;

/**
 * The longest stretch between two callbacks of a 10 ms interval timer while `work` runs (the
 * stretch from the last callback to the end counts too): what a timer, socket or signal handler in
 * the process waited at worst. (perf_hooks' monitorEventLoopDelay cannot show this: its own timer
 * does not run while the loop is held, so a held loop records nothing.)
 */
async function withLoopWatch(work: () => Promise<unknown>): Promise<Lag & { readonly ms: number }> {
  let last = performance.now();
  let longestGapMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, tickMs);
  const start = performance.now();
  await work();
  const end = performance.now();
  clearInterval(timer);
  return { ms: end - start, longestGapMs: Math.max(longestGapMs, end - last), ticks };
}

/**
 * How long a run takes to end once its AbortSignal aborts: the abort is scheduled by the first tool
 * call (so the compile of the long plan is behind it), 50 ms later, on a chain that would run for
 * seconds.
 */
async function cancelLatency(root: string, steps: number, afterMs: number): Promise<{ endedAfterAbortMs: number; stepsRun: number; causeCode: string }> {
  const dataDir = join(root, "cancel");
  const world = localWorld({ dataDir, durability: "process" });
  const workflow = fixedPlanWorkflow(chainLwir(steps, `cancel-${steps}`));
  const controller = new AbortController();
  let abortedAt: number | undefined;
  let scheduled = false;
  const tools = noopTools(() => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, afterMs);
  });
  let causeCode = "completed";
  try {
    await runWorkflow(workflow, {}, { world, tools, runId: "run-cancel", signal: controller.signal });
  } catch (error) {
    causeCode = String((error as { causeCode?: string }).causeCode ?? (error as Error).name);
  }
  const ended = performance.now();
  const stepsRun = (await world.listEvents("run-cancel")).filter((event) => event.type === "StepCompleted").length;
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
  // Never aborted: the timer only fired once the run had ended.
  return { endedAfterAbortMs: abortedAt === undefined || abortedAt > ended ? Number.NaN : ended - abortedAt, stepsRun, causeCode };
}

async function main(): Promise<void> {
  const steps = Number(process.env.LAG_STEPS ?? 2_000);
  const rounds = Number(process.env.LAG_ROUNDS ?? 3);
  const root = benchRoot("event-loop-lag-");
  const workflow = fixedPlanWorkflow(chainLwir(steps, `lag-${steps}`));
  console.log(`load average before: ${loadAverage()}`);
  await runWorkflowOnce({ root, workflow, durability: "process" }); // warm-up
  const rows: { durability: Durability; run: Lag & { ms: number }; idle: Lag }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const durability of ["strict", "process"] as const) {
      const run = await withLoopWatch(() => runWorkflowOnce({ root, workflow, durability }));
      const idle = await withLoopWatch(() => new Promise((resolve) => setTimeout(resolve, run.ms)));
      rows.push({ durability, run, idle });
    }
  }
  console.log(`load average after: ${loadAverage()}`);
  console.log(`round\tdurability\trun ms\tlongest wait of a ${tickMs} ms timer (run) ms\tticks (run)\tlongest wait (baseline: idle as long) ms\tticks (baseline)`);
  rows.forEach((row, index) => console.log(`${Math.floor(index / 2) + 1}\t${row.durability}\t${fmt(row.run.ms)}\t${fmt(row.run.longestGapMs)}\t${row.run.ticks}\t${fmt(row.idle.longestGapMs)}\t${row.idle.ticks}`));
  for (const durability of ["strict", "process"] as const) {
    const mine = rows.filter((row) => row.durability === durability);
    const runGap = median(mine.map((row) => row.run.longestGapMs));
    const idleGap = median(mine.map((row) => row.idle.longestGapMs));
    console.log(`${durability}: a ${tickMs} ms timer waited at most ${fmt(runGap)} ms (median of rounds) during a ${steps}-step run of ${fmt(median(mine.map((row) => row.run.ms)))} ms, against ${fmt(idleGap)} ms idle: ${fmt(runGap / idleGap, 2)}×`);
  }
  const cancel = await cancelLatency(root, 20_000, 50);
  console.log(`abort 50 ms into a 20,000-step run: the run ended ${cancel.causeCode}, ${Number.isNaN(cancel.endedAfterAbortMs) ? "only after its last step (the abort's timer never ran during it)" : `${fmt(cancel.endedAfterAbortMs)} ms after the abort`}, with ${cancel.stepsRun} of 20,000 steps completed`);
  rmSync(root, { recursive: true, force: true });
}

await main();
