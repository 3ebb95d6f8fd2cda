import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { LittleWorkflowError } from "@little-stack/canonical";
import { afterAll, describe, expect, it } from "vitest";
import { localWorld } from "./local-world.js";
import { memoryWorld } from "./memory-world.js";

const root = mkdtempSync(join(tmpdir(), "local-world-deferred-"));
let counter = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

function damagePayload(eventsDb: string, runId: string, sequence: number): void {
  const database = new Database(eventsDb);
  try {
    database.prepare("UPDATE events SET payload = json_set(payload, '$.n', 99) WHERE run_id = ? AND sequence = ?").run(runId, sequence);
  } finally {
    database.close();
  }
}

/** What `read` throws (undefined when it returns). */
function thrownBy(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
}

const started = [
  { type: "RunStarted", payload: { n: 1 } },
  { type: "StepCompleted", payload: { n: 2 } },
];

describe("localWorld deferListEvents", () => {
  it("reads nothing until read(): an event appended since is in the list, a row damaged since is refused", async () => {
    const world = localWorld({ dataDir: join(root, `w${(counter += 1)}`) });
    await world.appendEvents("run-1", started);
    const later = await world.deferListEvents!("run-1");
    await world.appendEvents("run-1", { type: "RunCompleted", payload: { n: 3 } });
    expect(later.read().map((event) => event.type)).toEqual(["RunStarted", "StepCompleted", "RunCompleted"]);

    const damaged = await world.deferListEvents!("run-1");
    damagePayload(world.paths.eventsDb, "run-1", 2);
    const error = thrownBy(() => damaged.read());
    expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), String(error)).toBe(true);
    expect((error as LittleWorkflowError).details).toMatchObject({ runId: "run-1", sequence: 2 });
    // What was read before the damage stays what it was.
    expect(later.read().map((event) => event.payload)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await world.close();
  });

  it("reads a list left unread at close() from the file when it is read, refusing a row damaged since, and reads nothing at close()", async () => {
    const dataDir = join(root, `w${(counter += 1)}`);
    const world = localWorld({ dataDir });
    await world.appendEvents("run-1", started);
    const unread = await world.deferListEvents!("run-1");
    const damagedLater = await world.deferListEvents!("run-1");
    const read = await world.deferListEvents!("run-1", { typePrefix: "Step" });
    expect(read.read()).toHaveLength(1);
    await world.close();
    // Read after the close: a read-only connection opened for the read.
    expect(unread.read().map((event) => event.payload)).toEqual([{ n: 1 }, { n: 2 }]);
    damagePayload(world.paths.eventsDb, "run-1", 2);
    const error = thrownBy(() => damagedLater.read());
    expect(LittleWorkflowError.is(error, "world.event_log_corrupt"), String(error)).toBe(true);
    // What was read before stays what it was.
    expect(read.read().map((event) => event.sequence)).toEqual([2]);
    expect(unread.read().map((event) => event.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("names the event log when a list is read after its data dir was removed", async () => {
    const dataDir = join(root, `w${(counter += 1)}`);
    const world = localWorld({ dataDir });
    await world.appendEvents("run-1", started);
    const unread = await world.deferListEvents!("run-1");
    await world.close();
    rmSync(dataDir, { recursive: true, force: true });
    const error = thrownBy(() => unread.read());
    expect(LittleWorkflowError.is(error), String(error)).toBe(true);
    expect(String((error as Error).message)).toContain(join(dataDir, "events"));
  });

  it("keeps a read's failure for every later read, and a closed world's failing list too", async () => {
    const world = localWorld({ dataDir: join(root, `w${(counter += 1)}`) });
    await world.appendEvents("run-1", started);
    damagePayload(world.paths.eventsDb, "run-1", 1);
    const deferred = await world.deferListEvents!("run-1");
    await world.close();
    const first = thrownBy(() => deferred.read());
    expect(LittleWorkflowError.is(first, "world.event_log_corrupt"), String(first)).toBe(true);
    expect(() => deferred.read()).toThrow((first as Error).message);
  });
});

describe("memoryWorld deferListEvents", () => {
  it("is the list as of the call: a later append is not in it", async () => {
    const world = memoryWorld();
    await world.appendEvents("run-1", started);
    const deferred = await world.deferListEvents!("run-1");
    await world.appendEvents("run-1", { type: "RunCompleted", payload: { n: 3 } });
    expect(deferred.read()).toEqual((await world.listEvents("run-1")).slice(0, 2));
    const none = await world.deferListEvents!("run-2");
    await world.appendEvents("run-2", started);
    expect(none.read()).toEqual([]);
    await world.close();
  });
});
