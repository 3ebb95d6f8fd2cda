import { readFileSync } from "node:fs";
import { canonicalJson } from "@little-stack/canonical";
import { eventIdFor, memoryWorld, type World } from "@little-stack/local-world";
import { executeWorkflowVersion } from "@little-stack/runtime";
import type pg from "pg";
import { expect } from "vitest";
import { awaitRun } from "../await-run.js";
import { fleetInput, fleetTools, fleetWorkflowVersion } from "./fleet-workflow.js";

/** The output of fleet run `index` executed once, uninterrupted, in this process. */
export async function referenceOutput(index: number): Promise<unknown> {
  const world = memoryWorld();
  try {
    return (await executeWorkflowVersion({ world, workflowVersion: fleetWorkflowVersion(), input: fleetInput(index), tools: fleetTools({ delayMs: 0 }) })).output;
  } finally {
    await world.close();
  }
}

/**
 * Everything the fleet guarantees, checked on each run: completed with the uninterrupted output,
 * sequences dense and every id re-hashing, no step completed twice. Resolves to how many step
 * completions the runs hold (for throughput figures).
 */
export async function expectRunsIntact(world: World, runs: readonly { readonly runId: string; readonly index: number }[]): Promise<{ steps: number }> {
  let steps = 0;
  for (const { runId, index } of runs) {
    const outcome = await awaitRun(world, runId, { pollEveryMs: 100 });
    expect(outcome.status, `${runId} completed`).toBe("completed");
    expect(outcome.output, `${runId} has the output of an uninterrupted run`).toEqual(await referenceOutput(index));
    const events = await world.listEvents(runId);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, position) => position + 1));
    for (const event of events) {
      expect(event.eventId).toBe(eventIdFor({ runId, sequence: event.sequence, type: event.type, payloadJson: canonicalJson(event.payload) }));
    }
    const completed = events.filter((event) => event.type === "StepCompleted").map((event) => (event.payload as { stepPath: string }).stepPath);
    expect(new Set(completed).size, `${runId}: no step completed twice`).toBe(completed.length);
    steps += completed.length;
  }
  return { steps };
}

/** No event was written with an older fence after one written with a newer fence (no stale write). */
export async function expectNoStaleWrites(admin: pg.Pool, schema: string): Promise<void> {
  const { rows } = await admin.query<{ run_id: string; sequence: number; fence: string; previous: string }>(
    `SELECT run_id, sequence, fence, previous FROM (
       SELECT run_id, sequence, fence, max(fence) OVER (PARTITION BY run_id ORDER BY sequence ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previous
       FROM ${schema}.events) AS audit
     WHERE fence < previous`,
  );
  expect(rows, "events written under a fence older than an earlier event's").toEqual([]);
}

/** Tool executions per call id from the tools' log: how many calls ran more than once (in flight at a kill). */
export function toolExecutions(logFile: string): { executions: number; calls: number; reExecuted: number } {
  const counts = new Map<string, number>();
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const [callId] = line.split(" ");
    if (callId === undefined || callId === "" || callId === "gate-begin") continue;
    counts.set(callId, (counts.get(callId) ?? 0) + 1);
  }
  const executions = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return { executions, calls: counts.size, reExecuted: [...counts.values()].filter((count) => count > 1).length };
}
