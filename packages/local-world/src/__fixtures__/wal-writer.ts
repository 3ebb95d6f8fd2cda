// Appends `batches` batches of events to a run, reports `done <lastSequence> <lastEventId>` and
// then waits to be killed with its connection open: the commits stay in events.db-wal, as after
// a crash (a clean close would checkpoint them into events.db).
import { reportLine } from "./report-line.js";
import { localWorld } from "../local-world.js";

const [dataDir, runId, batches] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined || batches === undefined) throw new Error("usage: wal-writer.ts <dataDir> <runId> <batches>");
const world = localWorld({ dataDir });
// "exit-locked": the batches are appended under the run's lock, taken first and given back last.
const lock = process.argv[5] === "exit-locked" ? await world.acquireRunLock(runId) : undefined;
let last = { sequence: 0, eventId: "" };
for (let batch = 0; batch < Number(batches); batch += 1) {
  // "exit-soft": every second batch is appended with durable: false.
  const durable = !(process.argv[5] === "exit-soft" && batch % 2 === 1);
  const stored = await world.appendEvents(
    runId,
    [
      { type: "StepCompleted", payload: { stepPath: `s${batch}`, n: batch, text: "z".repeat(200) } },
      { type: "harness.tool_call.succeeded", payload: { stepPath: `s${batch}`, n: batch } },
    ],
    { durable },
  );
  last = stored.at(-1)!;
}
await lock?.release();
reportLine(`done ${last.sequence} ${last.eventId}`);
// "exit" / "exit-locked" / "exit-soft": close and end (a traced run); otherwise wait to be killed.
if (process.argv[5]?.startsWith("exit") === true) await world.close();
else setInterval(() => undefined, 60_000);
