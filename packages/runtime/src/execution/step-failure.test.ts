import { createToolRegistry } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import { LittleWorkflowError } from "@little-stack/canonical";
import { tool } from "ai";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";
import { stepErrorOf } from "./step-failure.js";

const huge = 20 * 1024 * 1024;

describe("errors crossing into the log are bounded", () => {
  it("stepErrorOf keeps the start of a huge name and message and says how long they were", () => {
    const error = new Error("m".repeat(huge));
    error.name = "N".repeat(huge);
    const payload = stepErrorOf(error, "step_failed");
    expect(payload.message.length).toBeLessThan(17 * 1024);
    expect(payload.message.endsWith(`… [truncated: ${huge} characters in all]`)).toBe(true);
    expect(payload.name.length).toBeLessThan(400);
    const coded = stepErrorOf(new LittleWorkflowError("x.code", "w".repeat(huge)), "step_failed");
    expect(coded).toMatchObject({ code: "x.code", causeCode: "step_failed", retriable: true });
    expect(coded.message.length).toBeLessThan(17 * 1024);
    expect(stepErrorOf("plain text", "timeout")).toEqual({ name: "Error", message: "plain text", causeCode: "timeout", retriable: false });
  });

  it("a tool throwing a 20 MB message fails the run with bounded StepFailed, RunFailed and harness events", async () => {
    const world = memoryWorld();
    const tools = createToolRegistry({
      loud: tool({
        description: "Fails with a huge message.",
        inputSchema: z.object({}),
        execute: async (): Promise<unknown> => {
          throw new Error("t".repeat(huge));
        },
      }),
    });
    const steps = [{ id: "call", uses: "tool.call", retry: { maxAttempts: 3 }, with: { tool: "loud", args: {} }, output: { mode: "object", schema: { type: "object" } } }] as LwirStep[];
    const failure = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["loud"] })), input: {}, tools, workerHarness: createFakeWorkerHarness(), runId: "run-loud" }).catch(
      (caught: unknown) => caught,
    )) as Error;
    expect(failure.message.length).toBeLessThan(18 * 1024);
    const events = await world.listEvents("run-loud");
    const totalPayload = events.reduce((sum, event) => sum + JSON.stringify(event.payload).length, 0);
    // Three attempts, each recording the message a few times: tens of kilobytes, never megabytes.
    expect(totalPayload).toBeLessThan(512 * 1024);
    const failed = events.filter((event) => event.type === "StepFailed" || event.type === "RunFailed");
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const event of failed) expect(JSON.stringify(event.payload)).toContain(`[truncated: ${huge} characters in all]`);
    await world.close();
  });
});
