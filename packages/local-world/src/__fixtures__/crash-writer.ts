// Appends events and writes artifacts in a loop until killed. Reports on stdout only after the
// call that made a thing durable has returned: `artifact <id> <sha256>`, `committed <sequence> <eventId>`.
import { reportLine } from "./report-line.js";
import { localWorld } from "../local-world.js";

const [dataDir, runId, durability] = process.argv.slice(2);
if (dataDir === undefined || runId === undefined || (durability !== "strict" && durability !== "process")) {
  throw new Error("usage: crash-writer.ts <dataDir> <runId> <strict|process>");
}
const world = localWorld({ dataDir, durability });
const report = reportLine;

let next = (await world.listEvents(runId)).length;
if (next === 0) {
  const [started] = await world.appendEvents(runId, { type: "RunStarted", payload: { pid: process.pid } });
  report(`committed ${started!.sequence} ${started!.eventId}`);
  next = 1;
}
report("ready");
for (let round = 0; ; round += 1) {
  const artifact = await world.writeArtifact({
    runId,
    stepPath: `step-${next}`,
    name: "output.json",
    json: { after: next, pid: process.pid, filler: "x".repeat((round * 977) % 20_000) },
  });
  report(`artifact ${artifact.id} ${artifact.sha256}`);
  const batch = [
    { type: "ArtifactCreated", payload: { artifactId: artifact.id, sha256: artifact.sha256 } },
    ...Array.from({ length: round % 4 }, (_, index) => ({
      type: "StepCompleted",
      payload: { artifactRefs: [artifact.id], index, text: "y".repeat((round * 131 + index) % 3000) },
    })),
  ];
  const stored = await world.appendEvents(runId, batch);
  for (const event of stored) report(`committed ${event.sequence} ${event.eventId}`);
  next = stored[stored.length - 1]!.sequence;
}
