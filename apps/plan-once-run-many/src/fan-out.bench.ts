// Figures for plan-once-run-many: wall time of the 50-document pipeline with 10 sub-runs in flight
// against the same pipeline with 1 (the baseline, same process, interleaved), and the time to
// replay a finished pipeline (every model and tool call answered from the log).
// pnpm --filter @little-stack-apps/plan-once-run-many run bench
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runDemo } from "./run-demo.js";

const rounds = 3;
const documents = 50;

async function timed(maxConcurrentSubRuns: number, delayMs: number): Promise<{ ms: number; replayMs: number; peak: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "lw-bench-fan-out-"));
  try {
    const started = performance.now();
    const summary = await runDemo({ dataDir, runId: "pipeline-bench", documents, maxConcurrentSubRuns, delayMs });
    const ms = performance.now() - started;
    if (summary.completedSubRuns !== documents || summary.plannerCalls !== 1) throw new Error(`unexpected summary ${JSON.stringify(summary)}`);
    const replayStarted = performance.now();
    await runDemo({ dataDir, runId: "pipeline-bench", documents, maxConcurrentSubRuns, delayMs });
    return { ms, replayMs: performance.now() - replayStarted, peak: summary.peakConcurrentSubRuns };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

for (const delayMs of [0, 20]) {
  const serial: number[] = [];
  const parallel: number[] = [];
  const replays: number[] = [];
  let peak = 0;
  for (let round = 0; round < rounds; round += 1) {
    serial.push((await timed(1, delayMs)).ms);
    const run = await timed(10, delayMs);
    parallel.push(run.ms);
    replays.push(run.replayMs);
    peak = Math.max(peak, run.peak);
  }
  const line = [
    `tool delay ${String(delayMs).padStart(2)} ms:`,
    `maxConcurrentSubRuns=1 ${median(serial).toFixed(0)} ms (baseline)`,
    `maxConcurrentSubRuns=10 ${median(parallel).toFixed(0)} ms (${(median(serial) / median(parallel)).toFixed(2)}x faster, peak ${peak})`,
    `replay of the finished pipeline ${median(replays).toFixed(0)} ms (${(median(parallel) / median(replays)).toFixed(1)}x faster than running it)`,
  ];
  process.stdout.write(`${line.join("  |  ")}\n`);
}
process.stdout.write(`${documents} documents, median of ${rounds} interleaved rounds, each on a fresh local world (SQLite, synchronous=FULL)\n`);
