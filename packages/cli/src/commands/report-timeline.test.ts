import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRegistry } from "@little-stack/harness";
import { localWorld } from "@little-stack/local-world";
import { registerWorkflowVersion, type LwirDocument } from "@little-stack/lwir";
import { executeWorkflowVersion } from "@little-stack/runtime";
import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { runLittleInProcess } from "../__fixtures__/run-in-process.js";
import { stepTimeline, timelineBar, type TimelineRow } from "../inspect/step-timeline.js";

/** Three steps that each wait until all three have started (so they overlap, whatever the timing), then a join. */
async function runThreeAtOnce(dataDir: string, runId: string): Promise<void> {
  let started = 0;
  const waiters: (() => void)[] = [];
  const tools = createToolRegistry({
    meet: tool({
      description: "Returns once three calls have started.",
      inputSchema: jsonSchema<{ name: string }>({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
      execute: async ({ name }) => {
        started += 1;
        if (started >= 3) for (const wake of waiters.splice(0)) wake();
        else await new Promise<void>((resolve) => waiters.push(resolve));
        return { name };
      },
    }),
  });
  const object = { mode: "object", schema: { type: "object" } };
  const step = (id: string, needs: string[] = []) => ({ id, uses: "tool.call", needs, with: { tool: "meet", args: { name: id } }, output: object });
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "cli.timeline" },
    input: { schema: { type: "object" } },
    output: { schema: true },
    permissions: { tools: ["meet"], models: [] },
    steps: [step("a"), step("b"), step("c"), { ...step("join", ["a", "b", "c"]), with: { tool: "meet", args: { name: "join" } } }],
  } as unknown as LwirDocument;
  // join's own call is the fourth: the latch is open by then.
  const world = localWorld({ dataDir });
  try {
    await executeWorkflowVersion({ world, workflowVersion: registerWorkflowVersion(lwir), input: {}, tools, runId });
  } finally {
    await world.close();
  }
}

describe("little report --timeline", () => {
  it("shows steps that ran at the same time overlapping, and the step that needed them after them", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "little-cli-timeline-"));
    await runThreeAtOnce(join(workDir, ".little-workflow"), "run_timeline01");
    const json = await runLittleInProcess(["report", "run_timeline01", "--timeline", "--json"], { cwd: workDir });
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { status: string; totalMs: number; steps: TimelineRow[] };
    expect(report.status).toBe("completed");
    const byPath = new Map(report.steps.map((row) => [row.stepPath, row]));
    expect([...byPath.keys()].sort()).toEqual(["a", "b", "c", "join"]);
    // Each of a, b, c started before either of the others ended: the three intervals overlap.
    for (const left of ["a", "b", "c"]) {
      for (const right of ["a", "b", "c"]) expect(byPath.get(left)!.startMs, `${left} vs ${right}`).toBeLessThanOrEqual(byPath.get(right)!.endMs!);
    }
    for (const id of ["a", "b", "c"]) expect(byPath.get("join")!.startMs).toBeGreaterThanOrEqual(byPath.get(id)!.endMs!);
    const text = await runLittleInProcess(["report", "run_timeline01", "--timeline"], { cwd: workDir });
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^run run_timeline01 \(completed\), \d+(ms|\.\ds)$/);
    expect(lines[1]).toMatch(/^step\s+start\s+took\s+status\s+attempts\s+timeline$/);
    expect(lines.slice(3).map((line) => line.split(/\s+/)[0])).toHaveLength(4);
    for (const line of lines.slice(3)) expect(line).toMatch(/completed\s+1\s+\|[ =]{40}\|$/);
  });
});

describe("stepTimeline", () => {
  const at = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const event = (type: string, ms: number, payload: Record<string, unknown>) => ({ type, recordedAt: at(ms), payload });

  it("starts a step at its attempt's startedAt, not at the later commit that stored the announcement", () => {
    const rows = stepTimeline([
      event("RunStarted", 0, {}),
      // Held announcements committed with the step's result at 300 ms; startedAt says 10 ms.
      event("StepAttemptStarted", 300, { stepPath: "a", attempt: 1, startedAt: at(10) }),
      event("StepCompleted", 300, { stepPath: "a" }),
      event("StepAttemptStarted", 320, { stepPath: "b", attempt: 1, startedAt: at(12) }),
      event("StepFailed", 320, { stepPath: "b" }),
      event("StepAttemptStarted", 400, { stepPath: "b", attempt: 2, startedAt: at(330) }),
      event("StepCompleted", 500, { stepPath: "b" }),
      // An older log without startedAt falls back to recordedAt.
      event("StepAttemptStarted", 510, { stepPath: "c", attempt: 1 }),
    ]);
    expect(rows).toEqual([
      { stepPath: "a", startMs: 10, endMs: 300, status: "completed", attempts: 1 },
      { stepPath: "b", startMs: 12, endMs: 500, status: "completed", attempts: 2 },
      { stepPath: "c", startMs: 510, endMs: undefined, status: "running", attempts: 1 },
    ]);
    expect(timelineBar(rows[0]!, 600, 12)).toBe("|======      |");
    expect(timelineBar(rows[2]!, 600, 12)).toBe("|          ==|");
  });
});
