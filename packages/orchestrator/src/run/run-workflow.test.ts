import { localWorld, type World } from "@little-stack/local-world";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { replayRun, RunFailedError } from "@little-stack/runtime";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { candidateReviewPlan, candidateReviewSetup, createReviewerModel } from "../__fixtures__/candidate-review.js";
import { createFakeModel, createFakePlanner } from "../__fixtures__/fake-model.js";
import { outerLoopInput } from "../__fixtures__/outer-loop-workflow.js";
import { runWorkflow } from "./run-workflow.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("../__fixtures__/run-workflow-child.ts", import.meta.url));

let dataDir: string;
let world: World;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "lw-run-workflow-"));
  world = localWorld({ dataDir, maxConcurrentSteps: 4 });
});
afterEach(async () => {
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const input = { requirement: "Senior TypeScript engineer", resumeUrl: "https://example.test/ada.pdf" };

describe("runWorkflow", () => {
  it("compiles with the planner and executes in one run, with usage and cost", async () => {
    const planner = createFakePlanner(() => candidateReviewPlan());
    const reviewer = createReviewerModel();
    const parseCalls: string[] = [];
    const { workflow, tools } = candidateReviewSetup({ planner, reviewer, parseCalls });
    const result = await runWorkflow(workflow, input, { world, tools, timeout: "30m", runId: "run-review" });
    expect(result.status).toBe("completed");
    expect(result.runId).toBe("run-review");
    expect(result.output).toEqual({ verdict: "hire", score: 8 });
    expect(result.workflowVersionId).toMatch(/^wfver_[0-9a-f]{16}$/);
    expect(planner.calls).toBe(1);
    expect(reviewer.calls).toBe(1);
    expect(parseCalls).toEqual([input.resumeUrl]);
    const types = result.events.map((event) => event.type);
    expect(types.indexOf("harness.session.started")).toBeLessThan(types.indexOf("RunStarted"));
    expect(types.at(-1)).toBe("RunCompleted");
    // planner (gpt-5) and reviewer (gpt-4o-mini) are both in the bundled registry: priced.
    expect(result.usage.inputTokens).toBe(1100);
    expect(result.usage.pricedCalls + result.usage.unpricedCalls).toBe(2);
  });

  it("a planner that submits only steps (no schemas, hashes or permissions) is accepted at once and the run completes", async () => {
    const full = candidateReviewPlan() as { steps: unknown[] };
    const planner = createFakePlanner(() => ({ steps: full.steps }));
    const parseCalls: string[] = [];
    const { workflow, tools } = candidateReviewSetup({ planner, parseCalls });
    const result = await runWorkflow(workflow, input, { world, tools, runId: "run-steps-only" });
    expect(result.output).toEqual({ verdict: "hire", score: 8 });
    expect(planner.calls).toBe(1);
    const submissions = result.events.filter((event) => event.type === "harness.tool_call.succeeded" && (event.payload as { toolName?: string }).toolName === "submit_workflow");
    expect(submissions.map((event) => (event.payload as { result: unknown }).result)).toEqual([{ accepted: true, findings: [] }]);
    // The locked document is complete: the definition's schemas and permissions derived from the steps.
    const registered = result.events.find((event) => event.type === "WorkflowVersionRegistered")!.payload as { lwir: Record<string, unknown> };
    expect(registered.lwir).toMatchObject({
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "candidate.review" },
      input: { schema: workflow.inputSchema },
      output: { schema: workflow.outputSchema },
      permissions: { models: ["gpt-4o-mini"], tools: ["parsePdf"] },
    });
    expect(registered.lwir.steps).toEqual(full.steps);
  });

  it("the same runId again returns the recorded result without calling the planner, a model or a tool", async () => {
    const planner = createFakePlanner(() => candidateReviewPlan());
    const parseCalls: string[] = [];
    const { workflow, tools } = candidateReviewSetup({ planner, parseCalls });
    const first = await runWorkflow(workflow, input, { world, tools, runId: "run-again" });
    const planner2 = createFakePlanner(() => {
      throw new Error("planner must not be called");
    });
    const reviewer2 = createFakeModel({ provider: "openai.chat", modelId: "gpt-4o-mini", respond: () => { throw new Error("reviewer must not be called"); } });
    const again = candidateReviewSetup({ planner: planner2, reviewer: reviewer2, parseCalls });
    const second = await runWorkflow(again.workflow, input, { world, tools: again.tools, runId: "run-again" });
    expect(second.output).toEqual(first.output);
    expect(second.workflowVersionId).toBe(first.workflowVersionId);
    expect(planner2.calls + reviewer2.calls).toBe(0);
    expect(parseCalls).toHaveLength(1);
    // Read off the log without folding it: the same usage (priced), artifacts and events.
    expect(second.usage).toEqual(first.usage);
    expect(second.artifacts).toEqual(first.artifacts);
    expect(second.events.map((event) => [event.sequence, event.eventId])).toEqual(first.events.map((event) => [event.sequence, event.eventId]));
    // Another input is not this run's: refused as before, nothing appended.
    await expect(runWorkflow(again.workflow, { ...input, requirement: "Staff engineer" }, { world, tools: again.tools, runId: "run-again" })).rejects.toThrow(/input/);
    expect((await world.listEvents("run-again")).length).toBe(first.events.length);
  });

  it("takes the run lock once and holds it from the compile's first event to the run's last", async () => {
    const calls: string[] = [];
    const watched = new Proxy(world, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property === "acquireRunLock") {
          return async (runId: string) => {
            const lock = await target.acquireRunLock(runId);
            calls.push("acquire");
            return { ...lock, release: async () => { calls.push("release"); await lock.release(); } };
          };
        }
        if (property === "appendEvents") {
          return async (...args: Parameters<World["appendEvents"]>) => {
            calls.push(...(args[1] as readonly { type: string }[]).map((event) => event.type));
            return target.appendEvents(...args);
          };
        }
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { workflow, tools } = candidateReviewSetup({ planner: createFakePlanner(() => candidateReviewPlan()) });
    const result = await runWorkflow(workflow, input, { world: watched, tools, runId: "run-one-lock" });
    expect(result.status).toBe("completed");
    expect(calls.filter((call) => call === "acquire" || call === "release")).toEqual(["acquire", "release"]);
    expect(calls[0]).toBe("acquire");
    expect(calls[1]).toBe("OrchestrationRequested");
    expect(calls.at(-2)).toBe("RunCompleted");
    expect(calls.at(-1)).toBe("release");
    // Given back: another owner can take it now.
    const again = await world.acquireRunLock("run-one-lock");
    await again.release();
  });

  it("input that does not match the input schema fails with input_schema_error and the failed result", async () => {
    const { workflow, tools } = candidateReviewSetup({ planner: createFakePlanner(() => candidateReviewPlan()) });
    const error = (await runWorkflow(workflow, { requirement: 1 } as never, { world, tools, runId: "run-bad-input" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.causeCode).toBe("input_schema_error");
    expect(error.result?.status).toBe("failed");
    expect(error.result?.error.causeCode).toBe("input_schema_error");
  });

  it("a planner that never submits a valid LWIR fails with planner_validation_exhausted", async () => {
    const planner = createFakePlanner(() => ({ ...candidateReviewPlan(), steps: [] }));
    const { workflow, tools } = candidateReviewSetup({ planner });
    const error = (await runWorkflow(workflow, input, { world, tools, runId: "run-exhausted" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.causeCode).toBe("planner_validation_exhausted");
    expect(error.result?.usage.inputTokens).toBeGreaterThan(0);
    expect(error.result?.events.some((event) => event.type === "harness.model.responded")).toBe(true);
    // Recorded once as the run's outcome; asking again replays the planner (no model call) and fails the same way.
    expect(error.result?.events.at(-1)?.type).toBe("RunFailed");
    expect((await replayRun(world, "run-exhausted")).status).toBe("failed");
    const again = createFakePlanner(() => ({ ...candidateReviewPlan(), steps: [] }));
    const retry = candidateReviewSetup({ planner: again });
    await expect(runWorkflow(retry.workflow, input, { world, tools: retry.tools, runId: "run-exhausted" })).rejects.toMatchObject({ causeCode: "planner_validation_exhausted" });
    expect(again.calls).toBe(0);
    expect((await world.listEvents("run-exhausted")).filter((event) => event.type === "RunFailed")).toHaveLength(1);
  });

  it("a missing tool is refused before anything is planned", async () => {
    const planner = createFakePlanner(() => candidateReviewPlan());
    const { workflow } = candidateReviewSetup({ planner });
    await expect(runWorkflow(workflow, input, { world, tools: {}, runId: "run-no-tool" })).rejects.toThrow(/parsePdf/);
    expect(planner.calls).toBe(0);
  });

  it("the same runId after a real SIGKILL resumes: planner fast-forwarded, the completed step skipped", async () => {
    const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, dataDir, "run-killed"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, closeSignal) => resolve(closeSignal)));
    expect(signal, stderr).toBe("SIGKILL");
    const planner = createFakePlanner(() => candidateReviewPlan());
    const reviewer = createReviewerModel();
    const parseCalls: string[] = [];
    const { workflow, tools } = candidateReviewSetup({ planner, reviewer, parseCalls });
    const result = await runWorkflow(workflow, outerLoopInput, { world, tools, runId: "run-killed" });
    expect(result.output).toEqual({ verdict: "hire", score: 8 });
    expect(planner.calls).toBe(0);
    expect(parseCalls).toEqual([]);
    expect(reviewer.calls).toBe(1);
    expect(result.events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepId: string }).stepId)).toEqual(["parse", "review"]);
    // Both processes' model calls count: planner (first process) and reviewer (this one).
    expect(result.usage.inputTokens).toBe(100 + 1000);
  });

  it("a timeout while the planner works fails with timeout; an aborted signal with cancelled", async () => {
    const hanging = createFakeModel({ provider: "openai.chat", modelId: "gpt-5", respond: (_prompt, call) =>
        new Promise((_resolve, reject) => {
          if (call.abortSignal?.aborted === true) reject(new Error("aborted"));
          call.abortSignal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        }),
    });
    const { workflow, tools } = candidateReviewSetup({ planner: hanging });
    const timedOut = (await runWorkflow(workflow, input, { world, tools, runId: "run-timeout", timeout: "50ms" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(timedOut).toBeInstanceOf(RunFailedError);
    expect(timedOut.causeCode).toBe("timeout");
    const controller = new AbortController();
    controller.abort();
    const cancelled = (await runWorkflow(workflow, input, { world, tools, runId: "run-cancelled", signal: controller.signal }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(cancelled.causeCode).toBe("cancelled");
    expect(cancelled.result?.status).toBe("failed");
  });
});
