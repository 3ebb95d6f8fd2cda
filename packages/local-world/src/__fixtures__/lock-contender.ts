// Waits for "go" on stdin, tries to take the run lock, prints `acquired <token> <recoveredPid|->`
// or `refused <code>`, then holds what it got until stdin closes, releases and exits.
import { createInterface } from "node:readline";
import { reportLine } from "./report-line.js";
import { LittleWorkflowError } from "@little-stack/canonical";
import { localWorld } from "../local-world.js";

const [dataDir, runId] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined) throw new Error("usage: lock-contender.ts <dataDir> <runId>");
const world = localWorld({ dataDir });
const report = reportLine;
const input = createInterface({ input: process.stdin });
report("ready");
for await (const line of input) {
  if (line !== "go") continue;
  try {
    const lock = await world.acquireRunLock(runId);
    report(`acquired ${lock.token} ${lock.recoveredFrom?.pid ?? "-"}`);
  } catch (error) {
    report(`refused ${LittleWorkflowError.is(error) ? error.code : String(error)}`);
  }
}
await world.close();
