import type { EventEnvelope } from "@little-stack/local-world";
import { describe, expect, it } from "vitest";
import { formatDuration, ProgressPrinter } from "./progress-printer.js";

let sequence = 0;
const event = (type: string, payload: Record<string, unknown> = {}): EventEnvelope =>
  ({ eventId: `evt_${sequence}`, runId: "run_x", sequence: ++sequence, type, recordedAt: "2026-01-01T00:00:00.000Z", payload }) as EventEnvelope;

function printer(live: boolean): { lines: string[]; printer: ProgressPrinter; advance: (ms: number) => void } {
  const lines: string[] = [];
  let now = 1_000;
  return { lines, printer: new ProgressPrinter({ write: (line) => lines.push(line), live, now: () => now }), advance: (ms) => (now += ms) };
}

describe("ProgressPrinter", () => {
  it("on a terminal: a line per step started, completed (duration, tokens), retried, failed", () => {
    const { lines, printer: progress, advance } = printer(true);
    progress.events([event("RunStarted"), event("StepScheduled", { stepPath: "summarize" }), event("StepAttemptStarted", { stepPath: "summarize", attempt: 1 })]);
    advance(1_250);
    progress.events([event("harness.model.responded", { stepPath: "summarize" }), event("StepCompleted", { stepPath: "summarize", metadata: { usage: { inputTokens: 120, cachedInputTokens: 64, outputTokens: 20 } } })]);
    progress.events([event("StepAttemptStarted", { stepPath: "fetch", attempt: 1 })]);
    advance(40);
    progress.events([event("StepFailed", { stepPath: "fetch", error: { name: "ToolError", message: "timed\nout" } }), event("StepAttemptStarted", { stepPath: "fetch", attempt: 2 })]);
    progress.events([event("RunFailed", { error: { causeCode: "step_failed", message: "fetch failed" } })]);
    expect(lines).toEqual([
      "run run_x started",
      "  ▸ summarize started",
      "  ✓ summarize  1.3s  tokens in 120 (cached 64) / out 20",
      "  ▸ fetch started",
      "  ✗ fetch  40ms  ToolError: timed out",
      "  ↻ fetch retry (attempt 2)",
      "run failed (step_failed): fetch failed",
    ]);
  });

  it("says (resumed) for a step whose attempt started in an earlier process, and marks fixed outputs", () => {
    const { lines, printer: progress } = printer(true);
    progress.events([event("harness.session.started", { role: "fixer", manifest: { stepPath: "total" } }), event("StepCompleted", { stepPath: "total", metadata: {}, fixedSource: "export …" })]);
    expect(lines).toEqual(["  ⚒ total fixer session started", "  ✓ total  (resumed)  (fixed by the fixer)"]);
  });

  it("not on a terminal: one compact line per event", () => {
    const { lines, printer: progress } = printer(false);
    sequence = 0;
    progress.events([event("RunStarted"), event("StepCompleted", { stepPath: "fan[red].paint" }), event("harness.session.started", { manifest: { stepPath: "fan[red].describe" } })]);
    expect(lines).toEqual(["#1 RunStarted", "#2 StepCompleted fan[red].paint", "#3 harness.session.started fan[red].describe"]);
  });

  it("formats durations", () => {
    expect([formatDuration(12), formatDuration(1_049), formatDuration(61_000)]).toEqual(["12ms", "1.0s", "1m1s"]);
  });
});
