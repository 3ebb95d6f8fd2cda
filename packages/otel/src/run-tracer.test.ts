import type { RunEvent } from "@little-stack/runtime";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { createRunTracer } from "./run-tracer.js";

let sequence = 0;
const committed = (type: string, recordedAt: string, payload: Record<string, unknown>): RunEvent =>
  ({ eventId: `evt_${sequence}`, runId: "run-t", sequence: ++sequence, type, recordedAt, payload, ephemeral: false, replayed: false }) as RunEvent;

describe("createRunTracer", () => {
  it("starts a step attempt's span at the attempt's startedAt, though its StepAttemptStarted is recorded with the attempt's first result", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = await createRunTracer({ tracer: provider.getTracer("test") });
    // A code step that spent 300 ms before its first (and only) result: everything but RunStarted
    // is committed at the end, in one transaction.
    tracer.onEvent(committed("RunStarted", "2026-01-01T00:00:00.000Z", { workflowVersionId: "wfver_x" }));
    const end = "2026-01-01T00:00:00.350Z";
    tracer.onEvent(committed("StepScheduled", end, { stepPath: "compute", stepId: "compute" }));
    tracer.onEvent(committed("StepAttemptStarted", end, { stepPath: "compute", stepId: "compute", attempt: 1, attemptId: "attempt_1", startedAt: "2026-01-01T00:00:00.050Z" }));
    tracer.onEvent(committed("StepCompleted", end, { stepPath: "compute", stepId: "compute", attempt: 1 }));
    tracer.onEvent(committed("RunCompleted", end, {}));
    tracer.endOpenRuns();
    const step = exporter.getFinishedSpans().find((span) => span.name === "little.step compute")!;
    const ms = (time: readonly [number, number]): number => time[0] * 1000 + time[1] / 1e6;
    expect(ms(step.endTime) - ms(step.startTime)).toBeCloseTo(300, 0);
    await provider.shutdown();
  });
});
