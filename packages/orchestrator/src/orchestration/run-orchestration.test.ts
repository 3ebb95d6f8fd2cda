import { CapabilityDriftError } from "@little-stack/harness";
import { localWorld, type World } from "@little-stack/local-world";
import { replayRun } from "@little-stack/runtime";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { classifyPlan, classifySetup, createFanOutOrchestrator, documents, outputValue } from "../__fixtures__/fan-out.js";
import { createFakeModel, createFakePlanner, promptText, toolResults } from "../__fixtures__/fake-model.js";
import { runOrchestration } from "./run-orchestration.js";

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-orchestration-"));
  world = localWorld({ dataDir, maxConcurrentSteps: 16 });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Holds each classification until `size` are in flight at once (or all that remain), proving that many run together. */
function barrier(size: number, total: number) {
  let inFlight = 0;
  let peak = 0;
  let started = 0;
  let waiting: (() => void)[] = [];
  return {
    get peak() {
      return peak;
    },
    onStart: async () => {
      inFlight += 1;
      started += 1;
      peak = Math.max(peak, inFlight);
      const remaining = total - started + inFlight;
      if (inFlight >= Math.min(size, remaining)) {
        for (const release of waiting) release();
        waiting = [];
      } else {
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    onDone: () => {
      inFlight -= 1;
    },
  };
}

describe("runOrchestration", () => {
  it("plans once and runs 50 sub-runs, at most 10 in flight, each with its own log", async () => {
    const items = documents(50);
    const gate = barrier(10, 50);
    const { planner, tools, workflow } = classifySetup({ hooks: gate });
    const orchestrator = createFanOutOrchestrator(items);
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator, system: "Classify every document." }, input: { documents: items }, world, tools, runId: "pipeline-fifty" });
    expect(result.output).toBe("Classified 50 of 50 documents.");
    expect(planner.calls).toBe(1);
    expect(orchestrator.calls).toBe(3);
    expect(result.plannedVersions).toHaveLength(1);
    expect(result.subRuns).toHaveLength(50);
    expect(new Set(result.subRuns.map((subRun) => subRun.runId)).size).toBe(50);
    expect(result.subRuns.every((subRun) => subRun.status === "completed")).toBe(true);
    // Measured twice: by the tool (the barrier released only once 10 were in flight) and by the pipeline's slots.
    expect(gate.peak).toBe(10);
    expect(result.peakConcurrentSubRuns).toBe(10);
    for (const subRun of result.subRuns) {
      const state = await replayRun(world, subRun.runId);
      expect(state.status).toBe("completed");
      expect(state.parentRunId).toBe("pipeline-fifty");
    }
    const labels = await Promise.all(result.subRuns.map(async (subRun) => (await replayRun(world, subRun.runId)).output as { documentId: string; label: string }));
    expect(labels.map((label) => label.documentId).sort()).toEqual(items.map((item) => item.documentId));
  });

  it("gives the model compact results: runId, outputRef, outputPath (readable in the pipeline scratch), outputSummary, status", async () => {
    const items = documents(2);
    const { tools, workflow } = classifySetup();
    const orchestrator = createFanOutOrchestrator(items);
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator }, input: {}, world, tools, runId: "pipeline-compact" });
    const finalPrompt = orchestrator.prompts.at(-1)!;
    const runs = toolResults(finalPrompt).filter((entry) => entry.toolName === "run_workflow").map((entry) => outputValue(entry.output) as Record<string, unknown>);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(Object.keys(run).sort()).toEqual(["outputPath", "outputRef", "outputSummary", "runId", "status", "workflowVersionId"]);
      expect(run.status).toBe("completed");
      expect(String(run.outputPath)).toMatch(/^\/mnt\/scratch\/own\/outputs\/run_[0-9a-f]{16}\.json$/);
      const hostPath = join(dataDir, "runs", "pipeline-compact", "scratch", String(run.outputPath).slice("/mnt/scratch/own/".length));
      expect(JSON.parse(readFileSync(hostPath, "utf8"))).toEqual(JSON.parse(String(run.outputSummary)));
    }
    expect(result.subRuns.map((subRun) => subRun.runId).sort()).toEqual(runs.map((run) => String(run.runId)).sort());
    // The pipeline memory store exists, keyed by pipelineKey.
    expect(result.pipelineKey).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(dataDir, "memory", "pipelines", result.pipelineKey))).toBe(true);
  });

  it("plan_workflow with the same workflow and input plans once (content-addressed within the pipeline run)", async () => {
    const items = documents(3);
    const { planner, tools, workflow } = classifySetup();
    const orchestrator = createFanOutOrchestrator(items, { planTwice: true });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator }, input: {}, world, tools, runId: "pipeline-dedupe" });
    expect(planner.calls).toBe(1);
    const plans = toolResults(orchestrator.prompts.at(-1)!).filter((entry) => entry.toolName === "plan_workflow").map((entry) => outputValue(entry.output) as { workflowVersionId: string });
    expect(plans).toHaveLength(2);
    expect(plans[0]!.workflowVersionId).toBe(plans[1]!.workflowVersionId);
    expect(result.plannedVersions).toHaveLength(1);
  });

  it("start_workflow plans and runs in one call; unknown ids come back to the model as tool errors", async () => {
    const { tools, workflow } = classifySetup();
    const orchestrator = createFakeModel({
      respond: (prompt) => {
        const results = toolResults(prompt);
        if (results.length === 0) return { toolCalls: [{ toolName: "start_workflow", args: { workflowId: "doc.classify", input: { documentId: "d1", text: "invoice" } } }, { toolName: "run_workflow", args: { workflowVersionId: "wfver_0000000000000000", input: {} } }] };
        return { text: "done" };
      },
    });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator }, input: {}, world, tools, runId: "pipeline-start" });
    expect(result.output).toBe("done");
    const results = toolResults(orchestrator.prompts.at(-1)!);
    const started = outputValue(results.find((entry) => entry.toolName === "start_workflow")!.output) as { status: string; output: unknown; runId: string };
    expect(started.status).toBe("completed");
    expect(started.output).toEqual({ documentId: "d1", label: "invoice" });
    expect((await replayRun(world, started.runId)).status).toBe("completed");
    expect(JSON.stringify(results.find((entry) => entry.toolName === "run_workflow")!.output)).toContain("was not planned in this pipeline run");
    expect(result.subRuns.map((subRun) => subRun.tool)).toEqual(["start_workflow"]);
  });

  it("resuming a pipeline run replays it (no model call) and a changed workflow definition is capability drift", async () => {
    const items = documents(2);
    const { tools, workflow } = classifySetup();
    await runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: {}, world, tools, runId: "pipeline-drift" });
    const replayedOrchestrator = createFanOutOrchestrator(items);
    const same = classifySetup({ planner: createFakePlanner(() => classifyPlan()) });
    const again = await runOrchestration({ workflows: [same.workflow], orchestrator: { model: replayedOrchestrator }, input: {}, world, tools: same.tools, runId: "pipeline-drift" });
    expect(again.output).toBe("Classified 2 of 2 documents.");
    expect(replayedOrchestrator.calls + same.planner.calls).toBe(0);
    const changed = classifySetup({ description: "Classify documents, now differently." });
    await expect(runOrchestration({ workflows: [changed.workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: {}, world, tools: changed.tools, runId: "pipeline-drift" })).rejects.toBeInstanceOf(CapabilityDriftError);
  });

  it("refuses bad options with a named error", async () => {
    const { tools, workflow } = classifySetup();
    await expect(runOrchestration({ workflows: [], orchestrator: { model: createFanOutOrchestrator([]) }, input: {}, world, tools })).rejects.toThrow(/workflows must be a non-empty array/);
    await expect(runOrchestration({ workflows: [workflow, workflow], orchestrator: { model: createFanOutOrchestrator([]) }, input: {}, world, tools })).rejects.toThrow(/twice/);
    await expect(runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator([]) }, input: {}, world, tools, maxConcurrentSubRuns: 0 })).rejects.toThrow(/maxConcurrentSubRuns/);
  });

  it("the orchestrator's bash writes the pipeline store (rw) and reads available workflows' stores (ro)", async () => {
    const { tools, workflow } = classifySetup();
    const orchestrator = createFakeModel({
      respond: (prompt) => {
        const results = toolResults(prompt);
        if (results.length === 0) return { toolCalls: [{ toolName: "bash", args: { cmd: "echo 'plan once, run many' > /mnt/memory/pipeline/lessons.md && ls /mnt/memory/available-workflows" } }] };
        if (results.length === 1) return { toolCalls: [{ toolName: "bash", args: { cmd: "echo nope > /mnt/memory/available-workflows/doc.classify/x.md" } }] };
        return { text: JSON.stringify(results.map((result) => outputValue(result.output))) };
      },
    });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator }, input: {}, world, tools, runId: "pipeline-memory" });
    expect(readFileSync(join(dataDir, "memory", "pipelines", result.pipelineKey, "lessons.md"), "utf8")).toBe("plan once, run many\n");
    const [written, refused] = JSON.parse(String(result.output)) as { stdout: string; exitCode: number }[];
    expect(written!.exitCode).toBe(0);
    expect(written!.stdout).toContain("doc.classify");
    expect(refused!.exitCode).not.toBe(0);
    expect(existsSync(join(dataDir, "memory", "workflows", "doc.classify", "x.md"))).toBe(false);
  });

  it("maxConcurrentSubRuns bounds the fan-out at any size (3 of 7 here, measured by the tool)", async () => {
    const items = documents(7);
    const gate = barrier(3, 7);
    const { tools, workflow } = classifySetup({ hooks: gate });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: {}, world, tools, runId: "pipeline-three", maxConcurrentSubRuns: 3 });
    expect(result.output).toBe("Classified 7 of 7 documents.");
    expect(gate.peak).toBe(3);
    expect(result.peakConcurrentSubRuns).toBe(3);
  });

  it("a sub-run that fails comes back to the model as status failed with its cause, not as a pipeline failure", async () => {
    const { tools, workflow } = classifySetup();
    const orchestrator = createFakeModel({
      respond: (prompt) => {
        const results = toolResults(prompt);
        if (results.length === 0) return { toolCalls: [{ toolName: "plan_workflow", args: { workflowId: "doc.classify", input: { documentId: "d1", text: "x" } } }] };
        if (results.length === 1) {
          const plan = outputValue(results[0]!.output) as { workflowVersionId: string };
          return { toolCalls: [{ toolName: "run_workflow", args: { workflowVersionId: plan.workflowVersionId, input: { documentId: 42 } } }] };
        }
        return { text: JSON.stringify(outputValue(results[1]!.output)) };
      },
    });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator }, input: {}, world, tools, runId: "pipeline-failed-sub-run" });
    const answer = JSON.parse(String(result.output)) as { status: string; causeCode: string; outputSummary: string; runId: string };
    expect(answer.status).toBe("failed");
    expect(answer.causeCode).toMatch(/^[a-z_]+$/);
    expect(answer.outputSummary.length).toBeGreaterThan(0);
    expect(result.subRuns).toEqual([expect.objectContaining({ runId: answer.runId, status: "failed" })]);
  });

  it("orchestrator skills are listed in its system prompt and staged for bash", async () => {
    const skillDir = join(dataDir, "skill-src", "fan-out-playbook");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(join(skillDir, "SKILL.md"), "---\nname: fan-out-playbook\ndescription: How to plan once and run many.\n---\nPlan once, then run every input in one turn.\n");
    const { tools, workflow } = classifySetup();
    const orchestrator = createFakeModel({
      respond: (prompt) => (toolResults(prompt).length === 0 ? { toolCalls: [{ toolName: "bash", args: { cmd: "cat .agents/skills/fan-out-playbook/SKILL.md" } }] } : { text: String((outputValue(toolResults(prompt)[0]!.output) as { stdout: string }).stdout) }),
    });
    const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: orchestrator, skills: [skillDir] }, input: {}, world, tools, runId: "pipeline-skills" });
    expect(promptText(orchestrator.prompts[0]!)).toContain("How to plan once and run many.");
    expect(String(result.output)).toContain("Plan once, then run every input in one turn.");
  });
});
