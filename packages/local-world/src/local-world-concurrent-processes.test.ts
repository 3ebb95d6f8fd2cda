import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnFixture } from "./__fixtures__/child-process.js";
import { localWorld } from "./local-world.js";

const root = mkdtempSync(join(tmpdir(), "local-world-concurrent-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("localWorld with several processes appending to one run", () => {
  it("hands out every sequence exactly once and keeps each batch contiguous", async () => {
    const dataDir = join(root, "world");
    const world = localWorld({ dataDir });
    await world.appendEvents("run-shared", { type: "RunStarted", payload: {} });
    const writers = ["a", "b", "c"].map((label) => spawnFixture("concurrent-appender.ts", [dataDir, "run-shared", "600", label]));
    await Promise.all(writers.map((writer) => writer.waitForLine((line) => line === "ready")));
    for (const writer of writers) writer.child.stdin.end("go\n");
    const reports = await Promise.all(
      writers.map(async (writer) => {
        const line = await writer.waitForLine((text) => text.startsWith("{"));
        expect((await writer.exited).code).toBe(0);
        return JSON.parse(line) as { label: string; sequences: number[] };
      }),
    );
    const events = await world.listEvents("run-shared");
    expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
    const handedOut = reports.flatMap((report) => report.sequences).sort((left, right) => left - right);
    expect(handedOut).toEqual(Array.from({ length: events.length - 1 }, (_, index) => index + 2));
    for (const report of reports) {
      for (const sequence of report.sequences) {
        expect((events[sequence - 1]!.payload as { label: string }).label).toBe(report.label);
      }
    }
    // Batches of three (index 0, 1, 2) sit next to each other in the log.
    events.forEach((event, position) => {
      const payload = event.payload as { index?: number; label?: string; round?: number };
      if (payload.index === 1) {
        expect(events[position - 1]!.payload).toMatchObject({ label: payload.label, round: payload.round, index: 0 });
        expect(events[position + 1]!.payload).toMatchObject({ label: payload.label, round: payload.round, index: 2 });
      }
    });
    // Three writers one after the other would change label exactly twice: more means their
    // appends really interleaved, so stale sequence hints were hit and retried.
    const labelChanges = events.slice(2).filter((event, index) => {
      const previous = events[index + 1]!.payload as { label?: string };
      return (event.payload as { label?: string }).label !== previous.label;
    }).length;
    expect(labelChanges).toBeGreaterThan(2);
    await world.close();
  });
});
