import { memoryWorld, type World } from "@little-stack/local-world";
import { describe, expect, it } from "vitest";
import { RunStateFolder } from "../run-state/run-state-folder.js";
import { RunLog } from "./run-log.js";

// An announcement appended while the log is idle is held at once, without waiting for a turn of
// the drain; one appended while a commit is in flight waits behind it. These tests hold the log to
// the order that makes either path safe: sequences dense and in call order, the world's log equal
// to what callers were told.

/** A memory world whose appends wait until `release` is called (a commit held in flight). */
function gatedWorld(): { world: World; appends: () => number; release: () => void } {
  const inner = memoryWorld();
  let appends = 0;
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const world = Object.create(inner) as World;
  world.appendEvents = async (runId, events, options) => {
    appends += 1;
    await gate;
    return inner.appendEvents(runId, events, options);
  };
  return {
    world,
    appends: () => appends,
    release: () => {
      open();
      gate = Promise.resolve();
    },
  };
}

const scheduled = (stepPath: string) => ({ type: "StepScheduled", payload: { stepPath, stepId: stepPath, uses: "tool.call", visitIndex: 0 } });
const result = (n: number) => ({ type: "harness.tool_call.succeeded", payload: { sessionId: "s", n } });

describe("RunLog appends", () => {
  it("holds an announcement made while idle at once: its sequence is taken and nothing is written", async () => {
    const { world, appends, release } = gatedWorld();
    const log = new RunLog(world, "run-held", new RunStateFolder({ runId: "run-held" }));
    await log.open();
    const holding = log.appendAny([scheduled("a")]);
    // Held before appendAny returns, not a turn of the drain later.
    expect([log.folder.eventCount, log.folder.step("a")?.status]).toEqual([1, "scheduled"]);
    const [held] = await holding;
    expect([held!.sequence, appends()]).toEqual([1, 0]);
    release();
    const [stored] = await log.appendAny([result(1)]);
    expect(stored!.sequence).toBe(2);
    expect((await world.listEvents("run-held")).map((event) => [event.sequence, event.type])).toEqual([
      [1, "StepScheduled"],
      [2, "harness.tool_call.succeeded"],
    ]);
  });

  it("puts an announcement made while a commit is in flight after that commit's events", async () => {
    const { world, release } = gatedWorld();
    const log = new RunLog(world, "run-busy", new RunStateFolder({ runId: "run-busy" }));
    await log.open();
    const committing = log.appendAny([result(1), result(2)]);
    // Let the commit reach the (gated) world before the announcement arrives.
    await new Promise((resolve) => setImmediate(resolve));
    const announced = log.appendAny([scheduled("b")]);
    release();
    const [first, second] = await committing;
    const [late] = await announced;
    expect([first!.sequence, second!.sequence, late!.sequence]).toEqual([1, 2, 3]);
    await log.flush();
    const stored = await world.listEvents("run-busy");
    expect(stored.map((event) => [event.sequence, event.type])).toEqual([
      [1, "harness.tool_call.succeeded"],
      [2, "harness.tool_call.succeeded"],
      [3, "StepScheduled"],
    ]);
    expect(log.folder.eventCount).toBe(3);
  });

  it("refuses an announcement whose payload is not JSON, taking no sequence", async () => {
    const { world, release } = gatedWorld();
    release();
    const log = new RunLog(world, "run-bad", new RunStateFolder({ runId: "run-bad" }));
    await log.open();
    await expect(log.appendAny([{ type: "StepScheduled", payload: { stepPath: "a", at: new Date(0) } }])).rejects.toThrow(/Date/);
    const [next] = await log.appendAny([scheduled("a")]);
    expect(next!.sequence).toBe(1);
  });
});
