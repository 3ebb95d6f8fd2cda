import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DemoSummary } from "./run-demo.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const mainFile = fileURLToPath(new URL("./main.ts", import.meta.url));

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-plan-once-run-many-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the demo's command; with `killAfter`, SIGKILLs it once it reported that many classifications. */
function runMain(killAfter?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; classified: number }> {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", mainFile, "--data-dir", dataDir], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let classified = 0;
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    classified += chunk.toString().split("\n").filter((line) => line.startsWith("classified ")).length;
    if (killAfter !== undefined && classified >= killAfter) child.kill("SIGKILL");
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, classified })));
}

describe("plan-once-run-many demo", () => {
  it("plans once and classifies 50 documents in 50 sub-runs, at most 10 at a time", async () => {
    const run = await runMain();
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as DemoSummary;
    expect(summary.plannerCalls).toBe(1);
    expect(summary.subRuns).toBe(50);
    expect(summary.completedSubRuns).toBe(50);
    expect(summary.peakConcurrentSubRuns).toBeLessThanOrEqual(10);
    expect(summary.output).toEqual({ classified: 50, tally: { invoice: 17, contract: 17, notes: 16 } });
    expect(run.classified).toBe(50);
  });

  it("killed with SIGKILL at a random point and run again, it completes with 50 sub-runs and one planner call in total", async () => {
    const killAfter = 1 + Math.floor(Math.random() * 45);
    const killed = await runMain(killAfter);
    expect(killed.signal, `killAfter=${killAfter}`).toBe("SIGKILL");
    const resumed = await runMain();
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout) as DemoSummary;
    expect(summary.plannerCalls).toBe(1);
    expect(summary.subRuns).toBe(50);
    expect(summary.completedSubRuns).toBe(50);
    expect(summary.output).toEqual({ classified: 50, tally: { invoice: 17, contract: 17, notes: 16 } });
    // Work finished before the kill is not repeated: only classifications in flight at the kill (at
    // most 10, the sub-run cap) run twice. (The orchestrator package's kill test checks this per sub-run.)
    expect(resumed.classified).toBeLessThanOrEqual(50);
    expect(killed.classified + resumed.classified).toBeLessThanOrEqual(50 + 10);
  });
});
