// A strict writer whose last batch is appended with durable: false: it appends a durable batch,
// copies events.db-wal to <walCopy> (what the disk holds if nothing written after that point
// reaches it before an OS crash), appends a durable: false batch, reports `done <lastSequence>`
// and waits to be killed with its connection open.
import { copyFileSync } from "node:fs";
import { reportLine } from "./report-line.js";
import { localWorld } from "../local-world.js";

const [dataDir, runId, walCopy] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined || walCopy === undefined) throw new Error("usage: soft-append-writer.ts <dataDir> <runId> <walCopy>");
const world = localWorld({ dataDir, durability: "strict" });
await world.appendEvents(runId, [
  { type: "RunStarted", payload: { input: 1 } },
  { type: "StepCompleted", payload: { stepPath: "a" } },
]);
copyFileSync(`${world.paths.eventsDb}-wal`, walCopy);
const soft = await world.appendEvents(runId, [{ type: "StepScheduled", payload: { stepPath: "b" } }, { type: "StepAttemptStarted", payload: { stepPath: "b", attempt: 1 } }], { durable: false });
reportLine(`done ${soft.at(-1)!.sequence}`);
setInterval(() => undefined, 60_000);
