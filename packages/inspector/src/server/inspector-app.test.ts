import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalWorld } from "@little-stack/local-world";
import { localWorld } from "@little-stack/local-world";
import { completedRun, failedRun, writerWorld } from "../__fixtures__/inspected-runs.js";
import { createInspectorApp } from "./inspector-app.js";
import type { RunView } from "./run-views.js";
import type { StepView } from "./step-view.js";

let dir: string;
let writer: LocalWorld;
let reader: LocalWorld;
let app: ReturnType<typeof createInspectorApp>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lw-inspector-api-"));
  writer = writerWorld(dir);
  await completedRun(writer);
  await failedRun(writer);
  reader = localWorld({ dataDir: dir, readOnly: true });
  app = createInspectorApp({ world: reader });
}, 60_000);
afterAll(async () => {
  await reader.close();
  await writer.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, host = "127.0.0.1:4310") => app.request(path, { headers: { host } });

/** A registered version of a one-step workflow named `name` that may use `tools`. */
async function oneStepVersion(name: string, tools: readonly string[], step: Record<string, unknown>): Promise<never> {
  const { registerWorkflowVersion } = await import("@little-stack/lwir");
  return registerWorkflowVersion({
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name, version: "0.1.0" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { models: [], tools, secrets: [], network: [] },
    steps: [step],
  } as never) as never;
}

describe("the inspector's API", () => {
  it("answers only requests naming a loopback host (no DNS rebinding)", async () => {
    expect((await get("/api/runs", "evil.example:4310")).status).toBe(403);
    expect((await get("/api/runs", "localhost:4310")).status).toBe(200);
  });

  it("says which run or step is unknown", async () => {
    const run = await get("/api/runs/run-nope");
    expect(run.status).toBe(404);
    expect(((await run.json()) as { error: string }).error).toContain("run-nope");
    expect((await get("/api/runs/run-completed/steps/nope")).status).toBe(404);
  });

  it("lists a run's sub-runs: the runs that name it as their parent", async () => {
    const { executeWorkflowVersion } = await import("@little-stack/runtime");
    const source = "export async function run({ input }) { return input; }\n";
    const sha256 = `sha256:${(await import("node:crypto")).createHash("sha256").update(source).digest("hex")}`;
    const version = await oneStepVersion("child.noop", [], { id: "echo", uses: "code.run", with: { entrypoint: "main.js", files: { "main.js": { content: source, sha256 } }, sandbox: { network: "deny" } }, output: { mode: "object", schema: { type: "object" } } });
    for (const runId of ["sub-a", "sub-b"]) await executeWorkflowVersion({ world: writer, workflowVersion: version, input: { n: 1 }, runId, parentRunId: "run-completed" });
    const view = (await (await get("/api/runs/run-completed")).json()) as RunView;
    expect(view.subRuns.map((run) => [run.runId, run.status, run.parentRunId])).toEqual([
      ["sub-a", "completed", "run-completed"],
      ["sub-b", "completed", "run-completed"],
    ]);
  });

  it("times a tool.call step's attempt from its own start, though its StepAttemptStarted is recorded at its end", async () => {
    const { executeWorkflowVersion } = await import("@little-stack/runtime");
    const { createToolRegistry } = await import("@little-stack/harness");
    const { jsonSchema, tool } = await import("ai");
    const tools = createToolRegistry({
      slow: tool({ description: "Takes 40 ms.", inputSchema: jsonSchema({ type: "object" }), execute: async (input) => new Promise((resolve) => setTimeout(() => resolve(input), 40)) }),
    });
    const version = await oneStepVersion("slow.tool", ["slow"], { id: "wait", uses: "tool.call", with: { tool: "slow", args: { n: 1 } }, output: { mode: "object", schema: { type: "object" } } });
    await executeWorkflowVersion({ world: writer, workflowVersion: version, input: {}, tools, runId: "run-slow-tool" });
    const started = (await reader.listEvents("run-slow-tool")).find((event) => event.type === "StepAttemptStarted")!;
    const [attempt] = ((await (await get("/api/runs/run-slow-tool/steps/wait")).json()) as StepView).attempts;
    expect(attempt!.startedAt).toBe((started.payload as { startedAt: string }).startedAt);
    expect(Date.parse(attempt!.endedAt!) - Date.parse(attempt!.startedAt)).toBeGreaterThanOrEqual(35);
    const bar = ((await (await get("/api/runs/run-slow-tool")).json()) as RunView).timeline.rows.find((row) => row.stepPath === "wait")!.bars[0]!;
    expect(bar.endMs! - bar.startMs).toBeGreaterThanOrEqual(35);
  });

  it("reads a step's model call with its price and its tool calls", async () => {
    const step = (await (await get("/api/runs/run-completed/steps/summarize")).json()) as StepView;
    const call = step.attempts[0]!.modelCalls[0]!;
    expect(call).toMatchObject({ model: "openai.chat:gpt-4o-mini", status: "responded", usage: { inputTokens: 182, cachedInputTokens: 128, outputTokens: 31 } });
    expect(call.costUsd).toBeGreaterThan(0);
    expect(call.cachedShare).toBeCloseTo(128 / 182);
    const failed = (await (await get("/api/runs/run-failed")).json()) as RunView;
    expect(failed.error).toMatchObject({ causeCode: "step_failed", failedStepPath: "explode" });
  });

  it("shows a later turn's whole prompt although the log records only what is new since the turn before", async () => {
    const events = await reader.listEvents("run-completed");
    const fixerCalls = events.filter((event) => event.type === "harness.model.called" && (event.payload as { stepPath?: string }).stepPath?.startsWith("total") === true);
    const [first, second] = fixerCalls.map((event) => event.payload as { promptPrefix?: unknown; request: { messages: unknown[] } });
    expect(second?.promptPrefix).toBeDefined();
    const step = (await (await get("/api/runs/run-completed/steps/total")).json()) as StepView;
    const calls = step.attempts.flatMap((attempt) => attempt.modelCalls);
    expect(calls).toHaveLength(fixerCalls.length);
    // The second turn's prompt is the first's, then the fixer's tool call and its result.
    expect(calls[1]!.messages.slice(0, first!.request.messages.length)).toEqual(first!.request.messages);
    expect(calls[1]!.messages.slice(first!.request.messages.length)).toEqual(second!.request.messages);
    expect(calls[1]!.messages.length).toBeGreaterThan(second!.request.messages.length);
  });

  it("names the failed step of a failed run", async () => {
    const failed = (await (await get("/api/runs/run-failed")).json()) as RunView;
    expect(failed.error).toMatchObject({ causeCode: "step_failed", failedStepPath: "explode" });
  });
});
