import { describe, expect, it } from "vitest";
import { createHarnessEventRecorder } from "./harness-event-recorder.js";
import type { HarnessEventSink } from "./harness-event-sink.js";
import type { HarnessEventEnvelope } from "./harness-event-types.js";

const started = {
  type: "harness.tool_call.started",
  payload: { callId: "tcall_0123456789abcdef", caller: "code", toolName: "noop", args: { i: 1 }, callIndex: 0 },
};

/** A sink that keeps what it is given, as a world would, numbering from 1. */
function keepingSink(): HarnessEventSink & { readonly kept: HarnessEventEnvelope[] } {
  const kept: HarnessEventEnvelope[] = [];
  return {
    runId: "run-recorder",
    kept,
    async append(events) {
      const stored = events.map((event, index) => ({ eventId: `evt_${kept.length + index}`, runId: "run-recorder", sequence: kept.length + index + 1, recordedAt: "2026-12-07T00:00:00.000Z", ...event }) as HarnessEventEnvelope);
      kept.push(...stored);
      return stored;
    },
    async list() {
      return kept;
    },
  };
}

describe("createHarnessEventRecorder", () => {
  it("appends a valid batch through the sink and tells onAppended what was stored", async () => {
    const sink = keepingSink();
    const seen: number[] = [];
    const recorder = createHarnessEventRecorder({ sink, onAppended: (events) => seen.push(...events.map((event) => event.sequence)) });
    const stored = await recorder.append([started]);
    expect(stored.map((event) => [event.sequence, event.type])).toEqual([[1, "harness.tool_call.started"]]);
    expect(seen).toEqual([1]);
  });

  it("rejects a batch with one bad event, appending none of it", async () => {
    const sink = keepingSink();
    const recorder = createHarnessEventRecorder({ sink });
    const appending = recorder.append([started, { type: "harness.tool_call.started", payload: { callId: 7 } }]);
    expect(appending).toBeInstanceOf(Promise);
    await expect(appending).rejects.toThrow(/callId/);
    expect(sink.kept).toEqual([]);
  });

  it("turns a sink that throws instead of rejecting into a rejection, and accepts one that returns a plain array", async () => {
    const throwing = createHarnessEventRecorder({
      sink: {
        runId: "run-recorder",
        append: () => {
          throw new Error("disk on fire");
        },
        list: async () => [],
      },
    });
    const appending = throwing.append([started]);
    expect(appending).toBeInstanceOf(Promise);
    await expect(appending).rejects.toThrow("disk on fire");
    const plain = createHarnessEventRecorder({
      sink: { runId: "run-recorder", append: ((events: readonly unknown[]) => events.map((_, index) => ({ sequence: index + 1 }))) as unknown as HarnessEventSink["append"], list: async () => [] },
    });
    expect((await plain.append([started])).map((event) => event.sequence)).toEqual([1]);
  });
});
