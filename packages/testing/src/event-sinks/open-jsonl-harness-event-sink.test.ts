import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openJsonlHarnessEventSink } from "./open-jsonl-harness-event-sink.js";

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const failed = (message: string) => ({ type: "harness.session.failed" as const, payload: { runId: "run_1", error: { name: "Error", message } } });

describe("openJsonlHarnessEventSink", () => {
  it("appends dense sequences per run, survives reopening and cuts a torn last line", async () => {
    dir = mkdtempSync(join(tmpdir(), "jsonl-sink-"));
    const filePath = join(dir, "events.jsonl");
    const sink = await openJsonlHarnessEventSink({ filePath, runId: "run_1" });
    await Promise.all([sink.append([failed("a")]), sink.append([failed("b"), failed("c")])]);
    const other = await openJsonlHarnessEventSink({ filePath, runId: "run_2" });
    await other.append([failed("x")]);
    appendFileSync(filePath, '{"eventId":"evt_torn","runId":"run_1","seq');

    const reopened = await openJsonlHarnessEventSink({ filePath, runId: "run_1" });
    expect(readFileSync(filePath, "utf8").endsWith("\n")).toBe(true);
    const [stored] = await reopened.append([failed("d")]);
    expect(stored?.sequence).toBe(4);
    const listed = await reopened.list();
    expect(listed.map((event) => [event.sequence, (event.payload as { error: { message: string } }).error.message])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [4, "d"],
    ]);
    expect((await reopened.list({ afterSequence: 3 })).map((event) => event.sequence)).toEqual([4]);
  });
});
