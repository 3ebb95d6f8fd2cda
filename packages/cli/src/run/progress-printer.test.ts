import type { EventEnvelope } from "@little-stack/local-world";
import { describe, expect, it } from "vitest";
import { formatDuration, type ProgressMode, ProgressPrinter } from "./progress-printer.js";

let sequence = 0;
const event = (type: string, payload: Record<string, unknown> = {}): EventEnvelope =>
  ({ eventId: `evt_${sequence}`, runId: "run_x", sequence: ++sequence, type, recordedAt: "2026-01-01T00:00:00.000Z", payload }) as EventEnvelope;

/** A printer on a fake clock; `lines()` flushes and returns every line written so far. */
function printer(mode: ProgressMode): { writes: string[]; lines: () => string[]; printer: ProgressPrinter; advance: (ms: number) => void } {
  const writes: string[] = [];
  let now = 1_000;
  const progress = new ProgressPrinter({ write: (text) => writes.push(text), mode, now: () => now });
  const lines = (): string[] => {
    progress.flush();
    return writes.join("").split("\n").slice(0, -1);
  };
  return { writes, lines, printer: progress, advance: (ms) => (now += ms) };
}

/** The events a trivial tool.call step commits, in log order. */
function stepEvents(stepPath: string): EventEnvelope[] {
  return [
    event("StepScheduled", { stepPath }),
    event("StepAttemptStarted", { stepPath, attempt: 1 }),
    event("harness.session.started", { manifest: { stepPath } }),
    event("harness.tool_call.started", { callId: `call_${stepPath}` }),
    event("harness.tool_call.completed", { callId: `call_${stepPath}`, result: { ok: true } }),
    event("harness.session.completed", {}),
    event("StepCompleted", { stepPath, metadata: {} }),
  ];
}

describe("ProgressPrinter", () => {
  it("live: a line per step started, completed (duration, tokens), retried, failed", () => {
    const { lines, printer: progress, advance } = printer("live");
    progress.events([event("RunStarted"), event("StepScheduled", { stepPath: "summarize" }), event("StepAttemptStarted", { stepPath: "summarize", attempt: 1 })]);
    advance(1_250);
    progress.events([event("harness.model.responded", { stepPath: "summarize" }), event("StepCompleted", { stepPath: "summarize", metadata: { usage: { inputTokens: 120, cachedInputTokens: 64, outputTokens: 20 } } })]);
    advance(300);
    progress.events([event("StepAttemptStarted", { stepPath: "fetch", attempt: 1 })]);
    advance(40);
    progress.events([event("StepFailed", { stepPath: "fetch", error: { name: "ToolError", message: "timed\nout" } }), event("StepAttemptStarted", { stepPath: "fetch", attempt: 2 })]);
    progress.events([event("RunFailed", { error: { causeCode: "step_failed", message: "fetch failed" } })]);
    expect(lines()).toEqual([
      "run run_x started",
      "  ▸ summarize started",
      "  ✓ summarize  1.3s  tokens in 120 (cached 64) / out 20",
      // fetch failed 40 ms after it started, before its start line was written: only the end shows.
      "  ✗ fetch  40ms  ToolError: timed out",
      "  ↻ fetch retry (attempt 2)",
      "run failed (step_failed): fetch failed",
    ]);
  });

  it("times a step from the log (its attempt's startedAt to its end's recordedAt), not from when its events arrive", () => {
    for (const mode of ["live", "steps"] as const) {
      const { lines, printer: progress } = printer(mode);
      // A tool.call step's events all arrive at once, at its end: 120 ms of work between them.
      progress.events([
        event("StepScheduled", { stepPath: "fetch" }),
        event("StepAttemptStarted", { stepPath: "fetch", attempt: 1, startedAt: "2026-01-01T00:00:00.000Z" }),
        { ...event("StepCompleted", { stepPath: "fetch", metadata: {} }), recordedAt: "2026-01-01T00:00:00.120Z" },
        event("StepAttemptStarted", { stepPath: "parse", attempt: 1, startedAt: "2026-01-01T00:00:00.120Z" }),
        { ...event("StepFailed", { stepPath: "parse", error: { name: "Error", message: "bad" } }), recordedAt: "2026-01-01T00:00:02.620Z" },
      ]);
      // Live: the start lines are taken back, their ends came before they were written.
      expect(lines(), mode).toEqual(["  ✓ fetch  120ms", "  ✗ parse  2.5s  Error: bad"]);
    }
  });

  it("live: says (resumed) for a step whose attempt started in an earlier process, and marks fixed outputs", () => {
    const { lines, printer: progress } = printer("live");
    progress.resuming({ runId: "run_x", eventCount: 9, completedSteps: [] });
    progress.events([event("harness.session.started", { role: "fixer", manifest: { stepPath: "total" } }), event("StepCompleted", { stepPath: "total", metadata: {}, fixedSource: "export …" })]);
    expect(lines()).toEqual(["resuming run_x: 9 events recorded; completed steps reused: none", "  ⚒ total fixer session started", "  ✓ total  (resumed)  (fixed by the fixer)"]);
  });

  it("reads a session's start (its whole manifest) only once a code.run step, which may have a fixer, was scheduled", () => {
    for (const mode of ["live", "steps"] as const) {
      const { lines, printer: progress } = printer(mode);
      let manifestReads = 0;
      const sessionStarted = (stepPath: string, role: string): EventEnvelope => {
        const started = event("harness.session.started");
        Object.defineProperty(started, "payload", { enumerable: true, get: () => ((manifestReads += 1), { role, manifest: { stepPath } }) });
        return started;
      };
      progress.events([event("StepScheduled", { stepPath: "fetch", uses: "tool.call" }), sessionStarted("fetch", "worker.tool-call")]);
      expect(manifestReads, mode).toBe(0);
      progress.events([event("StepScheduled", { stepPath: "total", uses: "code.run" }), sessionStarted("total", "worker.code-run"), sessionStarted("total", "fixer")]);
      expect(manifestReads, mode).toBe(2);
      expect(lines().filter((line) => line.includes("⚒")), mode).toEqual(["  ⚒ total fixer session started"]);
    }
  });

  it("live: steps faster than a person reads are coalesced into one line per quarter second", () => {
    const { lines, printer: progress, advance } = printer("live");
    progress.events([event("RunStarted")]);
    for (let index = 0; index < 1_000; index += 1) {
      progress.events(stepEvents(`s${index}`));
      advance(1);
    }
    progress.events([event("RunCompleted")]);
    const printed = lines();
    // 1,000 steps in one second: the first few lines, then a group per 250 ms, then the end.
    expect(printed.length).toBeLessThan(20);
    expect(printed[0]).toBe("run run_x started");
    expect(printed.at(-1)).toBe("run completed");
    const groups = printed.filter((line) => / steps {2}s\d+ … s\d+ {2}\(/.test(line));
    expect(groups.length).toBeGreaterThanOrEqual(3);
    // Every completed step is counted once: the single lines plus the groups' counts.
    const singles = printed.filter((line) => /^ {2}✓ s\d+ {2}/.test(line)).length;
    const grouped = groups.reduce((sum, line) => sum + Number(/✓ (\d+) steps/.exec(line)![1]), 0);
    expect(singles + grouped).toBe(1_000);
    expect(printed.at(-2)).toMatch(/s999/);
  });

  it("steps (piped): at most one line per step boundary, never one per event", () => {
    const { lines, printer: progress } = printer("steps");
    const events: EventEnvelope[] = [event("WorkflowVersionRegistered"), event("RunStarted")];
    for (let index = 0; index < 200; index += 1) events.push(...stepEvents(`s${index}`));
    events.push(event("StepAttemptStarted", { stepPath: "last", attempt: 1 }), event("StepFailed", { stepPath: "last", error: { name: "Error", message: "no" } }));
    events.push(event("StepAttemptStarted", { stepPath: "last", attempt: 2 }), event("StepCompleted", { stepPath: "last", metadata: {} }), event("RunCompleted"));
    for (const one of events) progress.events([one]);
    const printed = lines();
    const boundaries = events.filter((one) => one.type === "StepCompleted" || one.type === "StepFailed" || (one.type === "StepAttemptStarted" && (one.payload as { attempt: number }).attempt > 1));
    expect(printed).toHaveLength(boundaries.length + 2);
    expect(printed.filter((line) => line.includes("started") && line.startsWith("  "))).toEqual([]);
    expect(printed.slice(0, 2)).toEqual(["run run_x started", expect.stringMatching(/^ {2}✓ s0 {2}\d+ms$/)]);
    expect(printed.slice(-4)).toEqual([expect.stringMatching(/^ {2}✗ last {2}\d+ms {2}Error: no$/), "  ↻ last retry (attempt 2)", expect.stringMatching(/^ {2}✓ last/), "run completed"]);
  });

  it("events: every event as one JSON line, the complete machine-readable stream", () => {
    const { lines, printer: progress } = printer("events");
    const events = [event("RunStarted", { input: {} }), ...stepEvents("a"), event("StepFailed", { stepPath: "b", error: { message: "bad \u009b[2J and \u001b]0;x" } }), event("RunCompleted", {})];
    progress.events(events.slice(0, 3));
    progress.events(events.slice(3));
    const printed = lines().map((line) => JSON.parse(line) as unknown);
    expect(printed).toEqual(events.map(({ eventId, runId, sequence: at, type, recordedAt, payload }) => ({ eventId, runId, sequence: at, type, recordedAt, payload })));
    // Controls stay in the data (JSON escapes) and never reach the terminal raw.
    // eslint-disable-next-line no-control-regex
    expect(lines().some((line) => /[\u0000-\u001f\u007f-\u009f]/.test(line))).toBe(false);
  });

  it("none: writes nothing, not even the resume summary", () => {
    const { writes, printer: progress } = printer("none");
    progress.resuming({ runId: "run_x", eventCount: 3, completedSteps: ["a"] });
    progress.events([event("RunStarted"), ...stepEvents("a"), event("RunCompleted")]);
    progress.flush();
    expect(writes).toEqual([]);
  });

  it("writes in batches: many events make one write until it is flushed", () => {
    const { writes, printer: progress } = printer("events");
    for (let index = 0; index < 50; index += 1) progress.events(stepEvents(`s${index}`));
    expect(writes).toEqual([]);
    progress.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n")).toHaveLength(50 * 7 + 1);
    progress.flush();
    expect(writes).toHaveLength(1);
  });

  it("the live mode is the default for `live: true`, steps otherwise", () => {
    expect(new ProgressPrinter({ write: () => undefined, live: true }).mode).toBe("live");
    expect(new ProgressPrinter({ write: () => undefined }).mode).toBe("steps");
  });

  it("formats durations", () => {
    expect([formatDuration(12), formatDuration(1_049), formatDuration(61_000)]).toEqual(["12ms", "1.0s", "1m1s"]);
  });
});
