// Opens the world, prints "ready", waits for a line on stdin, then appends `count` events
// (singles and batches of 3, alternately) to one run and prints the sequences it was given.
import { once } from "node:events";
import { reportLine } from "./report-line.js";
import { localWorld } from "../local-world.js";

const [dataDir, runId, countText, label] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined || countText === undefined || label === undefined) {
  throw new Error("usage: concurrent-appender.ts <dataDir> <runId> <count> <label>");
}
const world = localWorld({ dataDir, durability: "process" });
reportLine("ready");
await once(process.stdin, "data");
process.stdin.destroy();
const sequences: number[] = [];
let written = 0;
for (let round = 0; written < Number(countText); round += 1) {
  const size = round % 2 === 0 ? 1 : 3;
  const stored = await world.appendEvents(
    runId,
    Array.from({ length: size }, (_, index) => ({ type: "Appended", payload: { label, round, index } })),
  );
  sequences.push(...stored.map((event) => event.sequence));
  written += size;
}
await world.close();
reportLine(JSON.stringify({ label, sequences }));
