import { describe, expect, it } from "vitest";
import type { EventRecord } from "../events/runtime-event-types.js";
import { CommittedEventWindow, trimBatch } from "./committed-event-window.js";

const eventAt = (sequence: number): EventRecord =>
  ({ eventId: `evt_${sequence}`, runId: "run", sequence, type: "StepCompleted", recordedAt: "2026-12-03T00:00:00.000Z", payload: {} }) as unknown as EventRecord;

describe("CommittedEventWindow", () => {
  it("keeps fewer events than V8 needs alive to pretenure their allocation site, through a long chain of attempts", () => {
    const window = new CommittedEventWindow(false);
    let sequence = 0;
    let largest = 0;
    for (let step = 0; step < 2_000; step += 1) {
      // One attempt in flight at a time: it holds its events from its StepAttemptStarted on.
      window.push([eventAt(++sequence), eventAt(++sequence)]);
      const release = window.hold(sequence);
      for (let event = 0; event < 5; event += 1) window.push([eventAt(++sequence)]);
      release();
      largest = Math.max(largest, window.size);
    }
    // V8 pretenures a site when ≥ 85% of ≥ 100 objects it made since the last scavenge are alive.
    expect(largest).toBeLessThan(85);
    expect(largest).toBeLessThanOrEqual(2 * trimBatch + 7);
    expect(window.count).toBe(sequence);
    expect(window.last()!.sequence).toBe(sequence);
    expect(window.complete).toBe(false);
  });

  it("never trims what an attempt in flight holds", () => {
    const window = new CommittedEventWindow(false);
    window.push([eventAt(1), eventAt(2)]);
    const release = window.hold(2);
    for (let sequence = 3; sequence <= 500; sequence += 1) window.push([eventAt(sequence)]);
    expect(window.holdsAfter(2)).toBe(true);
    expect(window.after(2, () => true).map((event) => event.sequence)).toEqual(Array.from({ length: 498 }, (_, index) => index + 3));
    release();
    window.push([eventAt(501)]);
    expect(window.holdsAfter(2)).toBe(false);
    expect(window.size).toBeLessThanOrEqual(2 * trimBatch);
  });

  it("keeps every event when told to (a world that cannot read its log back)", () => {
    const window = new CommittedEventWindow(true);
    for (let sequence = 1; sequence <= 300; sequence += 1) window.push([eventAt(sequence)]);
    expect(window.complete).toBe(true);
    expect(window.all()).toHaveLength(300);
  });
});
