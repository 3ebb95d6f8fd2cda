import { localWorld, type World } from "@little-stack/local-world";
import { replayRun } from "@little-stack/runtime";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifyPlan, classifySetup, createFanOutOrchestrator, documents } from "../__fixtures__/fan-out.js";
import { createFakePlanner } from "../__fixtures__/fake-model.js";
import { runOrchestration } from "./run-orchestration.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("../__fixtures__/fan-out-child.ts", import.meta.url));

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-fan-out-kill-"));
});
afterEach(async () => {
  await world?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the pipeline in a child and SIGKILLs it after it reported `killAfter` completed sub-run steps. */
function runAndKill(runId: string, killAfter: number): Promise<{ signal: NodeJS.Signals | null; steps: number; stderr: string }> {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, dataDir, runId], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let steps = 0;
  let stderr = "";
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith("step ")) continue;
      steps += 1;
      if (steps === killAfter) child.kill("SIGKILL");
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (_code, signal) => resolve({ signal, steps, stderr })));
}

describe("orchestrator crash mid-fan-out", () => {
  it("SIGKILL at a random point, then resume: exactly 50 sub-runs, one planner call in total, nothing finished runs again", async () => {
    const killAfter = 1 + Math.floor(Math.random() * 40);
    const killed = await runAndKill("pipeline-kill", killAfter);
    expect(killed.signal, `killAfter=${killAfter} ${killed.stderr}`).toBe("SIGKILL");

    world = localWorld({ dataDir });
    const finishedBefore = new Set<string>();
    for (const run of await world.listRuns()) if ((await replayRun(world, run.runId)).status === "completed") finishedBefore.add(run.runId);

    const items = documents(50);
    const classified: string[] = [];
    const planner = createFakePlanner(() => classifyPlan());
    const { tools, workflow } = classifySetup({ planner, hooks: { onDone: (documentId) => classified.push(documentId) } });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: { documents: items }, world, tools, runId: "pipeline-kill", maxConcurrentSubRuns: 10 });

    expect(result.output, `killAfter=${killAfter}`).toBe("Classified 50 of 50 documents.");
    expect(planner.calls).toBe(0);
    expect(result.subRuns).toHaveLength(50);
    // Exactly 50 sub-runs exist in the world, each completed once with its own log.
    const runs = await world.listRuns();
    const states = await Promise.all(runs.map((run) => replayRun(world, run.runId)));
    const subRuns = states.filter((state) => state.parentRunId === "pipeline-kill" && Object.keys(state.steps).length > 0);
    expect(subRuns).toHaveLength(50);
    expect(subRuns.every((state) => state.status === "completed")).toBe(true);
    for (const state of subRuns) {
      const completions = (await world.listEvents(state.runId)).filter((event) => event.type === "StepCompleted");
      expect(completions).toHaveLength(1);
    }
    // One planner model call in total, across both processes.
    const planRuns = result.plannedVersions.map((planned) => planned.planRunId);
    expect(planRuns).toHaveLength(1);
    const plannerResponses = (await world.listEvents(planRuns[0]!)).filter((event) => event.type === "harness.model.responded");
    expect(plannerResponses).toHaveLength(1);
    // Sub-runs finished before the kill were not run again.
    const rerun = classified.filter((documentId) => subRuns.some((state) => finishedBefore.has(state.runId) && (state.input as { documentId: string }).documentId === documentId));
    expect(rerun).toEqual([]);
    expect(classified.length).toBeLessThanOrEqual(50 - finishedBefore.size);
  });
});
