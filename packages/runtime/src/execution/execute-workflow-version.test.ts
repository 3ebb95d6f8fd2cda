import { CanonicalText, canonicalJson } from "@little-stack/canonical";
import { memoryWorld, type EventInput, type World } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { createFakeWorkerHarness } from "../__fixtures__/fake-worker-harness.js";
import { countingTools } from "../__fixtures__/test-tools.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import { replayRun } from "../run-state/replay-run.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

const objectOutput = { mode: "object", schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } } as const;

function chain(length: number): LwirStep[] {
  return Array.from({ length }, (_, index) => ({
    id: `s${index}`,
    uses: "tool.call",
    needs: index === 0 ? [] : [`s${index - 1}`],
    with: { tool: "increment", args: index === 0 ? { n: "{{ input.n }}" } : { n: `{{ steps.s${index - 1}.output.n }}` } },
    output: objectOutput,
  })) as LwirStep[];
}

describe("executeWorkflowVersion: sequential steps", () => {
  it("hands the world each payload's canonical text once computed, sealed, so it is not serialized twice", async () => {
    const inner = memoryWorld();
    const inputs: EventInput[] = [];
    const world: World = Object.assign(Object.create(inner) as World, {
      appendEvents: (runId: string, events: EventInput | readonly EventInput[]) => {
        inputs.push(...(Array.isArray(events) ? events : [events as EventInput]));
        return inner.appendEvents(runId, events);
      },
      listEvents: inner.listEvents.bind(inner),
      acquireRunLock: inner.acquireRunLock.bind(inner),
    });
    const lwir = lwirDocument({ steps: chain(2), tools: ["increment"] });
    await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 1 }, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-sealed" });
    const sealed = inputs.filter((input) => CanonicalText.isSealed(input.canonicalPayload));
    // Held announcements (runtime's own and the harness's) and harness results all come sealed.
    for (const type of ["StepScheduled", "StepAttemptStarted", "harness.session.started", "harness.tool_call.succeeded"]) {
      expect(sealed.filter((input) => input.type === type)).toHaveLength(2);
    }
    for (const input of sealed) expect(input.canonicalPayload!.json).toBe(canonicalJson(input.payload));
  });

  it("held events a harness lists before their commit carry the ids, sequences and payloads the world then stores", async () => {
    const world = memoryWorld();
    const seen: { eventId: string; sequence: number; type: string; payload: unknown }[] = [];
    const inner = createFakeWorkerHarness();
    const harness = {
      id: inner.id,
      async run(task: Parameters<typeof inner.run>[0], ctx: Parameters<typeof inner.run>[1]) {
        const result = await inner.run(task, ctx);
        // The step's session is held until its StepCompleted: what the sink lists now is held.
        for (const event of await ctx.durability!.list()) seen.push({ eventId: event.eventId, sequence: event.sequence, type: event.type, payload: event.payload });
        return result;
      },
    };
    const lwir = lwirDocument({ steps: chain(2), tools: ["increment"] });
    await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 1 }, tools: countingTools().registry, workerHarness: harness, runId: "run-held" });
    const stored = new Map((await world.listEvents("run-held")).map((event) => [event.sequence, event]));
    expect(seen.map((event) => event.type)).toContain("harness.tool_call.succeeded");
    for (const event of seen) {
      const match = stored.get(event.sequence)!;
      expect({ eventId: match.eventId, type: match.type, payload: match.payload }).toEqual({ eventId: event.eventId, type: event.type, payload: event.payload });
    }
  });

  it("returns exactly the stored events as the result's events, without reading the log back", async () => {
    const world = memoryWorld();
    const lwir = lwirDocument({ steps: chain(3), tools: ["increment"] });
    const workflowVersion = versionOf(lwir);
    const first = await executeWorkflowVersion({ world, workflowVersion, input: { n: 1 }, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-history" });
    const listed = await world.listEvents("run-history");
    const shape = (events: readonly { eventId: string; sequence: number; type: string; payload: unknown }[]) =>
      events.map(({ eventId, sequence, type, payload }) => ({ eventId, sequence, type, payload }));
    expect(first.events.map((event) => event.sequence)).toEqual(listed.map((_, index) => index + 1));
    expect(shape(first.events)).toEqual(shape(listed));
    // Executed again, the completed run answers from what it read at open: the same events.
    const again = await executeWorkflowVersion({ world, workflowVersion, input: { n: 1 }, tools: countingTools().registry, workerHarness: createFakeWorkerHarness(), runId: "run-history" });
    expect(shape(again.events)).toEqual(shape(listed));
  });

  it("runs tool.call steps in order, resolving inputs from the run input and prior outputs", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const lwir = lwirDocument({ steps: chain(3), tools: ["increment"] });
    const result = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: 5 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-seq" });
    expect(result.status).toBe("completed");
    expect(result.output).toEqual({ n: 8 });
    expect(calls.map((call) => call.args)).toEqual([{ n: 5 }, { n: 6 }, { n: 7 }]);
    const types = result.events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(["WorkflowVersionRegistered", "RunStarted"]);
    expect(types.at(-1)).toBe("RunCompleted");
    const isS1 = (event: { type: string; payload: unknown }, type: string): boolean => event.type === type && (event.payload as { stepPath?: string }).stepPath === "s1";
    const from = result.events.findIndex((event) => isS1(event, "StepScheduled"));
    const to = result.events.findIndex((event) => isS1(event, "StepCompleted"));
    expect(result.events.slice(from, to + 1).map((event) => event.type)).toEqual([
      "StepScheduled",
      "StepAttemptStarted",
      "harness.session.started",
      // No tool_call.started: committed with its succeeded, it would repeat a subset of it.
      "harness.tool_call.succeeded",
      "harness.session.completed",
      "StepCompleted",
    ]);
    const completed = result.events.find((event) => event.type === "StepCompleted")!.payload as Record<string, unknown>;
    expect(completed).toMatchObject({ stepPath: "s0", stepId: "s0", attempt: 1, output: { n: 6 }, artifactRefs: [], metadata: { uses: "tool.call", outputMode: "object" } });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0, pricedCalls: 0, unpricedCalls: 0 });
  });

  it("returns the recorded result when a completed run is executed again, calling nothing", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const workflowVersion = versionOf(lwirDocument({ steps: chain(2), tools: ["increment"] }));
    const harness = createFakeWorkerHarness();
    const first = await executeWorkflowVersion({ world, workflowVersion, input: { n: 1 }, tools: registry, workerHarness: harness, runId: "run-again" });
    const again = await executeWorkflowVersion({ world, workflowVersion, input: { n: 1 }, tools: registry, workerHarness: harness, runId: "run-again" });
    expect(again.output).toEqual(first.output);
    expect(again.events.length).toBe(first.events.length);
    expect(calls.length).toBe(2);
    expect(harness.calls.executeStep).toBe(2);
  });

  it("fails with input_schema_error when the input does not match input.schema", async () => {
    const world = memoryWorld();
    const { registry } = countingTools();
    const lwir = lwirDocument({ steps: chain(1), tools: ["increment"], inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } });
    const error = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwir), input: { n: "x" }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-bad-input" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).causeCode).toBe("input_schema_error");
    const state = await replayRun(world, "run-bad-input");
    expect(state.status).toBe("failed");
    expect(state.failure?.causeCode).toBe("input_schema_error");
  });

  it("fails with step_schema_error (never retried) when a step output does not match its output mode", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const steps = [{ id: "e", uses: "tool.call", with: { tool: "echo", args: { text: "hi" } }, output: { mode: "text" }, retry: { maxAttempts: 3 } }] as LwirStep[];
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["echo"] })), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-schema" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_schema_error");
    expect(error.failedStepPath).toBe("e");
    expect(calls.length).toBe(1);
    expect(error.result?.events.filter((event) => event.type === "StepFailed").length).toBe(1);
  });

  it("retries a failing tool up to retry.maxAttempts, then fails the run with step_failed", async () => {
    const world = memoryWorld();
    const { registry, calls } = countingTools();
    const steps = [{ id: "boom", uses: "tool.call", with: { tool: "explode" }, output: { mode: "json" }, retry: { maxAttempts: 3 } }] as LwirStep[];
    const error = (await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps, tools: ["explode"] })), input: {}, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-retry" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error.causeCode).toBe("step_failed");
    expect(error.failedStepPath).toBe("boom");
    expect(calls.length).toBe(3);
    const attempts = error.result!.events.filter((event) => event.type === "StepAttemptStarted").map((event) => (event.payload as { attemptId: string }).attemptId);
    expect(attempts).toEqual(["attempt_1", "attempt_2", "attempt_3"]);
    expect(error.result!.events.at(-1)!.type).toBe("RunFailed");
  });

  it("refuses a second live writer of the same run with the world's RunLockedError", async () => {
    const world = memoryWorld();
    const lock = await world.acquireRunLock("run-locked");
    const { registry } = countingTools();
    const error = await executeWorkflowVersion({ world, workflowVersion: versionOf(lwirDocument({ steps: chain(1), tools: ["increment"] })), input: { n: 1 }, tools: registry, workerHarness: createFakeWorkerHarness(), runId: "run-locked" }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("world.run_locked");
    expect(await world.listEvents("run-locked")).toEqual([]);
    await lock.release();
  });
});
