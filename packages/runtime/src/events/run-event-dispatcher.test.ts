import type { EventEnvelope } from "@little-stack/local-world";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "./run-event.js";
import { RunEventDispatcher } from "./run-event-dispatcher.js";

/** An envelope whose id and payload count their reads, as the world's lazy envelopes compute them on first read. */
function countingEnvelope(sequence: number): { envelope: EventEnvelope; reads: { eventId: number; payload: number } } {
  const reads = { eventId: 0, payload: 0 };
  const envelope = {
    get eventId(): string {
      reads.eventId += 1;
      return `evt_${sequence}`;
    },
    runId: "run_a",
    sequence,
    type: "StepCompleted",
    recordedAt: "2026-01-01T00:00:00.000Z",
    get payload() {
      reads.payload += 1;
      return { stepPath: `s${sequence}` };
    },
  } as EventEnvelope;
  return { envelope, reads };
}

describe("RunEventDispatcher", () => {
  it("delivers a committed envelope without reading its id or payload until the listener does", () => {
    const seen: RunEvent[] = [];
    const { envelope, reads } = countingEnvelope(1);
    new RunEventDispatcher((event) => seen.push(event)).committed([envelope], { replayed: false });
    expect(seen.map((event) => event.type)).toEqual(["StepCompleted"]);
    expect(reads).toEqual({ eventId: 0, payload: 0 });
    const [event] = seen;
    if (event === undefined || event.ephemeral) throw new Error("expected a committed event");
    expect(event.payload).toEqual({ stepPath: "s1" });
    expect(event.eventId).toBe("evt_1");
    expect(reads).toEqual({ eventId: 1, payload: 1 });
  });

  it("a delivered event serializes and spreads as the whole envelope plus ephemeral and replayed, keys in the envelope's order", () => {
    const seen: RunEvent[] = [];
    new RunEventDispatcher((event) => seen.push(event)).committed([countingEnvelope(1).envelope], { replayed: true });
    expect(JSON.stringify(seen[0])).toBe(
      '{"eventId":"evt_1","runId":"run_a","sequence":1,"type":"StepCompleted","recordedAt":"2026-01-01T00:00:00.000Z","payload":{"stepPath":"s1"},"ephemeral":false,"replayed":true}',
    );
    expect({ ...seen[0] }).toEqual({ eventId: "evt_1", runId: "run_a", sequence: 1, type: "StepCompleted", recordedAt: "2026-01-01T00:00:00.000Z", payload: { stepPath: "s1" }, ephemeral: false, replayed: true });
  });

  it("skips a sequence already delivered (a replay read twice)", () => {
    const seen: number[] = [];
    const dispatcher = new RunEventDispatcher((event) => seen.push(event.ephemeral ? -1 : event.sequence));
    dispatcher.committed([countingEnvelope(1).envelope, countingEnvelope(2).envelope], { replayed: true });
    dispatcher.committed([countingEnvelope(2).envelope, countingEnvelope(3).envelope], { replayed: false });
    expect(seen).toEqual([1, 2, 3]);
    expect(dispatcher.deliveredThrough("run_a")).toBe(3);
  });
});
