import { createToolRegistry } from "@little-stack/harness";
import { localWorld, memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { tool } from "ai";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { counterLoop } from "../__fixtures__/loop-workflows.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import type { RunFailedError } from "../errors/run-failed-error.js";
import { RunCapabilityDriftError, RunInputMismatchError } from "../errors/run-integrity-errors.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

const loop = lwirDocument({ steps: counterLoop({ until: 4, maxVisits: 6 }), tools: ["increment", "echo"] });

describe("resume after a crash", () => {
  it("resumes at every possible crash point with the same output and no completed tool call repeated", async () => {
    const reference = countingTools();
    const baseline = await executeWorkflowVersion({ world: memoryWorld(), workflowVersion: versionOf(loop), input: { n: 0 }, tools: reference.registry, workerHarness: createFakeWorkerHarness(), runId: "run-ref" });
    const total = baseline.events.length;
    for (let survive = 1; survive < total; survive += 1) {
      const world = memoryWorld();
      const { registry, calls } = countingTools();
      await expect(
        executeWorkflowVersion({ world: crashingWorld(world, survive), workflowVersion: versionOf(loop), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-crash" }),
      ).rejects.toThrow(/simulated crash/);
      const resumed = await executeWorkflowVersion({ world, workflowVersion: versionOf(loop), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-crash" });
      expect(resumed.output, `crash after event ${survive}`).toEqual(baseline.output);
      // A tool call is repeated only when it was in flight (started, no result) at the crash.
      const succeeded = resumed.events.filter((event) => event.type === "harness.tool_call.succeeded").length;
      expect(succeeded).toBe(reference.calls.length);
      expect(calls.length - succeeded, `crash after event ${survive}`).toBeLessThanOrEqual(1);
      const sequences = resumed.events.map((event) => event.sequence);
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
      expect(resumed.events.filter((event) => event.type === "RunCompleted")).toHaveLength(1);
    }
  });

  it("refuses to resume with an input other than the recorded one", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    await expect(
      executeWorkflowVersion({ world: crashingWorld(world, 4), workflowVersion: versionOf(loop), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-input" }),
    ).rejects.toThrow(/simulated crash/);
    const error = await executeWorkflowVersion({ world, workflowVersion: versionOf(loop), input: { n: 1 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-input" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunInputMismatchError);
    expect((error as RunInputMismatchError).code).toBe("runtime.run_input_mismatch");
  });

  it("refuses a resume whose tool descriptor changed without writing anything; the right tools then resume the run", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    await expect(
      executeWorkflowVersion({ world: crashingWorld(world, 6), workflowVersion: versionOf(loop), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-drift" }),
    ).rejects.toThrow(/simulated crash/);
    const recorded = (await world.listEvents("run-drift")).length;
    const changed = createToolRegistry({
      increment: tool({ description: "Adds TWO to n.", inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ({ n: n + 2 }) }),
      echo: registry.get("echo"),
    });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await executeWorkflowVersion({ world, workflowVersion: versionOf(loop), input: { n: 0 }, tools: changed, workerHarness: createFakeWorkerHarness(), runId: "run-drift" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RunCapabilityDriftError);
      expect((error as RunCapabilityDriftError).code).toBe("runtime.capability_drift");
      expect((error as Error).message).toContain('tool "increment" changed');
      expect((await world.listEvents("run-drift")).length).toBe(recorded);
    }
    const reference = await executeWorkflowVersion({ world: memoryWorld(), workflowVersion: versionOf(loop), input: { n: 0 }, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-ref" });
    const succeeded = (events: readonly { type: string }[]) => events.filter((event) => event.type === "harness.tool_call.succeeded").length;
    const recordedCalls = succeeded(await world.listEvents("run-drift"));
    const callsBefore = calls.length;
    const resumed = await executeWorkflowVersion({ world, workflowVersion: versionOf(loop), input: { n: 0 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-drift" });
    expect(resumed.status).toBe("completed");
    expect(resumed.output).toEqual(reference.output);
    // Only the calls the crash had not recorded ran (the refused attempts ran none).
    expect(calls.length - callsBefore).toBe(succeeded(reference.events) - recordedCalls);
  });

  it("checks artifact hashes on resume: a tampered output artifact is an integrity error", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "runtime-tamper-"));
    const world = localWorld({ dataDir });
    const { registry } = countingTools();
    const steps = [
      { id: "big", uses: "tool.call", with: { tool: "echo", args: { big: "{{ input.big }}" } }, output: { mode: "object", schema: { type: "object" } } },
      { id: "next", uses: "tool.call", needs: ["big"], with: { tool: "echo", args: { size: "{{ len(steps.big.output.big) }}" } }, output: { mode: "object", schema: { type: "object" } } },
    ] as LwirStep[];
    const workflowVersion = versionOf(lwirDocument({ steps, tools: ["echo"] }));
    const input = { big: "y".repeat(300_000) };
    const first = await executeWorkflowVersion({ world: crashingWorld(world, 11), workflowVersion, input, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-tamper" }).catch((caught: unknown) => caught);
    expect(String(first)).toMatch(/simulated crash/);
    const blobs = join(dataDir, "artifacts", "blobs");
    const [blob] = readdirSync(blobs);
    writeFileSync(join(blobs, blob!), JSON.stringify({ big: "tampered" }));
    const error = await executeWorkflowVersion({ world, workflowVersion, input, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-tamper" }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code, String(error)).toBe("world.artifact_integrity");
    await world.close();
  });
});

describe("timeout and cancellation", () => {
  function slowTools() {
    return createToolRegistry({
      slow: tool({
        description: "Waits until aborted.",
        inputSchema: z.object({}).passthrough(),
        execute: (_input, { abortSignal }) =>
          new Promise<{ ok: boolean }>((resolve, reject) => {
            const timer = setTimeout(() => resolve({ ok: true }), 5_000);
            abortSignal?.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(new Error("aborted"));
            });
          }),
      }),
    });
  }
  const steps = [{ id: "wait", uses: "tool.call", with: { tool: "slow" }, output: { mode: "json" }, retry: { maxAttempts: 3 } }] as LwirStep[];

  it("ends the run with timeout, aborting the in-flight call, the log ending with RunFailed", async () => {
    const world = memoryWorld();
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["slow"] })), input: {}, tools: slowTools(), workerHarness: createFakeWorkerHarness(), timeout: "50ms", runId: "run-timeout" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("timeout");
    expect(error.failedStepPath).toBe("wait");
    const events = await world.listEvents("run-timeout");
    expect(events.at(-1)!.type).toBe("RunFailed");
    expect(events.filter((event) => event.type === "StepAttemptStarted")).toHaveLength(1);
    const failed = events.find((event) => event.type === "StepFailed")!.payload as { error: { causeCode: string; retriable: boolean } };
    expect(failed.error).toMatchObject({ causeCode: "timeout", retriable: false });
  });

  it("ends the run with cancelled when its AbortSignal aborts", async () => {
    const world = memoryWorld();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["slow"] })), input: {}, tools: slowTools(), workerHarness: createFakeWorkerHarness(), signal: controller.signal, runId: "run-cancel" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("cancelled");
    expect((await world.listEvents("run-cancel")).at(-1)!.type).toBe("RunFailed");
  });

  it("rejects a malformed timeout before writing anything", async () => {
    const world = memoryWorld();
    const error = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["slow"] })), input: {}, tools: slowTools(), workerHarness: createFakeWorkerHarness(), timeout: "soon", runId: "run-bad-timeout" }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("runtime.invalid_run_options");
    expect(await world.listEvents("run-bad-timeout")).toEqual([]);
  });
});
