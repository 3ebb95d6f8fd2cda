import { localWorld, type World } from "@little-stack/local-world";
import { RunFailedError } from "@little-stack/runtime";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { promptText } from "../__fixtures__/fake-model.js";
import { cycleNumberIn, outerLoopInput, outerLoopSetup } from "../__fixtures__/outer-loop-workflow.js";
import { runWorkflow } from "../run/run-workflow.js";
import type { OuterLoopManifest } from "./outer-loop-manifest.js";
import { cycleRunIdFor, outerLoopIdFor, type OuterLoopCycleCompletedPayload } from "./run-outer-loop.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("../__fixtures__/outer-loop-child.ts", import.meta.url));

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-outer-loop-"));
  world = localWorld({ dataDir });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function runChild(runId: string, killPoint: string): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, dataDir, runId, killPoint], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (_code, signal) => resolve({ signal, stdout, stderr })));
}

async function cycleEvents(runId: string): Promise<OuterLoopCycleCompletedPayload[]> {
  return (await world.listEvents(runId)).filter((event) => event.type === "OuterLoopCycleCompleted").map((event) => event.payload as unknown as OuterLoopCycleCompletedPayload);
}

describe("outer loop (Layer B)", () => {
  it("runs cycles until supervise says done: outerLoop context on each request, OuterLoopCycleCompleted, manifest", async () => {
    const superviseCalls: number[] = [];
    const { planner, workflow, tools } = outerLoopSetup({ doneAfter: 2, maxOuterCycles: 3, superviseCalls });
    const result = await runWorkflow(workflow, outerLoopInput, { world, tools, runId: "loop-done" });
    expect(superviseCalls).toEqual([1, 2]);
    expect(result.output).toEqual({ verdict: "hire", score: 2 });
    expect(result.workflowVersionId).toMatch(/^wfver_/);
    // One planner session per cycle, each told its cycle; the final-cycle flag only when N === maxCycles.
    const prompts = planner.prompts.map(promptText);
    expect(prompts.map(cycleNumberIn)).toEqual([1, 2]);
    expect(prompts[0]).toContain('"isFinalCycle":false');
    expect(prompts[0]).toContain('"maxCycles":3');
    expect(prompts[1]).toContain('"promptNote":"be stricter than cycle 1"');
    expect(prompts[1]).toContain('"priorCycles":[{"cycleNumber":1');
    const recorded = await cycleEvents("loop-done");
    expect(recorded.map((payload) => [payload.cycleNumber, payload.decision.kind])).toEqual([[1, "continue"], [2, "done"]]);
    const outerLoopId = outerLoopIdFor("loop-done");
    expect(recorded.every((payload) => payload.outerLoopId === outerLoopId)).toBe(true);
    const manifest = (await world.readOuterLoopManifest(outerLoopId)) as unknown as OuterLoopManifest;
    expect(manifest.status).toBe("completed");
    expect(manifest.cycles.map((entry) => entry.runId)).toEqual([cycleRunIdFor(outerLoopId, 1), cycleRunIdFor(outerLoopId, 2)]);
    expect(manifest.pendingCycleRunId).toBeUndefined();
    // Each cycle is its own run under the loop.
    const cycleStart = (await world.listEvents(cycleRunIdFor(outerLoopId, 2))).find((event) => event.type === "RunStarted")!.payload as { parentRunId?: string; outerLoopId?: string };
    expect(cycleStart).toMatchObject({ parentRunId: "loop-done", outerLoopId });
    // The OrchestrationRequest of each cycle carries the outer-loop context.
    const request = (await world.listEvents(cycleRunIdFor(outerLoopId, 2))).find((event) => event.type === "OrchestrationRequested")!.payload as { outerLoop?: Record<string, unknown> };
    expect(request.outerLoop).toMatchObject({ outerLoopId, cycleNumber: 2, maxCycles: 3, isFinalCycle: false, promptNote: "be stricter than cycle 1" });
    // Usage covers both cycles (two planner calls and two reviews).
    expect(result.usage.inputTokens).toBe(2 * (100 + 1000));
  });

  it("isFinalCycle is true on cycle N === maxCycles, and continue on it fails with outer_loop_exhausted", async () => {
    const { planner, workflow, tools } = outerLoopSetup({ doneAfter: 99, maxOuterCycles: 2 });
    const error = (await runWorkflow(workflow, outerLoopInput, { world, tools, runId: "loop-exhausted" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.causeCode).toBe("outer_loop_exhausted");
    expect(error.outerLoopId).toBe(outerLoopIdFor("loop-exhausted"));
    expect(error.lastCycleOutput).toEqual({ verdict: "hire", score: 8 });
    expect(error.result?.status).toBe("failed");
    expect(promptText(planner.prompts[1]!)).toContain('"isFinalCycle":true');
    const finalRequest = (await world.listEvents(cycleRunIdFor(outerLoopIdFor("loop-exhausted"), 2))).find((event) => event.type === "OrchestrationRequested")!.payload as { outerLoop?: Record<string, unknown> };
    expect(finalRequest.outerLoop).toMatchObject({ cycleNumber: 2, maxCycles: 2, isFinalCycle: true });
    const manifest = (await world.readOuterLoopManifest(outerLoopIdFor("loop-exhausted"))) as unknown as OuterLoopManifest;
    expect(manifest.status).toBe("failed");
    // Asking again replays the recorded failure: no planner call, no supervise call.
    const superviseCalls: number[] = [];
    const again = outerLoopSetup({ doneAfter: 99, maxOuterCycles: 2, superviseCalls });
    await expect(runWorkflow(again.workflow, outerLoopInput, { world, tools: again.tools, runId: "loop-exhausted" })).rejects.toMatchObject({ causeCode: "outer_loop_exhausted" });
    expect(again.planner.calls).toBe(0);
    expect(superviseCalls).toEqual([]);
  });

  it("a finalOutput that does not match the workflow's output schema fails the loop with step_schema_error", async () => {
    const { workflow, tools } = outerLoopSetup({ doneAfter: 1, maxOuterCycles: 2 });
    const bad = { ...workflow, planner: { ...workflow.planner, supervise: () => ({ kind: "done" as const, finalOutput: { verdict: "maybe" } }) } } as typeof workflow;
    const error = (await runWorkflow(bad, outerLoopInput, { world, tools, runId: "loop-bad-final" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_schema_error");
    expect(error.message).toContain("planner.supervise");
  });

  it("maxOuterCycles above 1 without planner.supervise is refused", async () => {
    const { workflow, tools } = outerLoopSetup({ doneAfter: 1, maxOuterCycles: 1 });
    const plain = { ...workflow, planner: { ...workflow.planner, supervise: undefined } } as unknown as typeof workflow;
    await expect(runWorkflow(plain, outerLoopInput, { world, tools, maxOuterCycles: 2 })).rejects.toThrow(/planner.supervise/);
  });

  it("kill right after cycle 1's OuterLoopCycleCompleted (real SIGKILL), resume goes into cycle 2's compile", async () => {
    const killed = await runChild("loop-kill-between", "after-cycle-1");
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    expect((await cycleEvents("loop-kill-between")).map((payload) => payload.cycleNumber)).toEqual([1]);
    const outerLoopId = outerLoopIdFor("loop-kill-between");
    const cycleOneEvents = (await world.listEvents(cycleRunIdFor(outerLoopId, 1))).length;
    const superviseCalls: number[] = [];
    const parseCalls: string[] = [];
    const { planner, workflow, tools } = outerLoopSetup({ doneAfter: 3, maxOuterCycles: 3, superviseCalls, parseCalls });
    const result = await runWorkflow(workflow, outerLoopInput, { world, tools, runId: "loop-kill-between" });
    expect(planner.prompts.map((prompt) => cycleNumberIn(promptText(prompt)))).toEqual([2, 3]);
    expect(superviseCalls).toEqual([2, 3]);
    expect(parseCalls).toHaveLength(2);
    expect((await world.listEvents(cycleRunIdFor(outerLoopId, 1))).length).toBe(cycleOneEvents);
    expect((await cycleEvents("loop-kill-between")).map((payload) => payload.cycleNumber)).toEqual([1, 2, 3]);
    expect(result.output).toEqual({ verdict: "hire", score: 3 });
  });

  it("kill inside cycle 2 (real SIGKILL), resume continues the pending cycle run from its log", async () => {
    const killed = await runChild("loop-kill-within", "in-cycle-2");
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    const outerLoopId = outerLoopIdFor("loop-kill-within");
    const manifest = (await world.readOuterLoopManifest(outerLoopId)) as unknown as OuterLoopManifest;
    expect(manifest.pendingCycleNumber).toBe(2);
    expect(manifest.pendingCycleRunId).toBe(cycleRunIdFor(outerLoopId, 2));
    const superviseCalls: number[] = [];
    const parseCalls: string[] = [];
    const { planner, workflow, tools } = outerLoopSetup({ doneAfter: 3, maxOuterCycles: 3, superviseCalls, parseCalls });
    const result = await runWorkflow(workflow, outerLoopInput, { world, tools, runId: "loop-kill-within" });
    // Cycle 2's planner and its parse step were recorded: only cycle 3 plans and parses again.
    expect(planner.prompts.map((prompt) => cycleNumberIn(promptText(prompt)))).toEqual([3]);
    expect(parseCalls).toHaveLength(1);
    expect(superviseCalls).toEqual([2, 3]);
    expect(result.output).toEqual({ verdict: "hire", score: 3 });
    const cycleTwo = (await world.listEvents(cycleRunIdFor(outerLoopId, 2))).filter((event) => event.type === "StepCompleted");
    expect(cycleTwo.map((event) => (event.payload as { stepId: string }).stepId)).toEqual(["parse", "review"]);
  });
});
