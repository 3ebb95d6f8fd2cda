// One runWorkflow of an LWIR file in a plain `node` process (no TypeScript loader): step-cost's
// like-for-like baseline for `little run`, which is a plain node process running the built dist/.
//   node src/cold-run-workflow.mjs <lwir.json> <data-dir>   → prints { runId, loggedMs } as JSON
import { readFileSync } from "node:fs";
import { defineWorkflow, localWorld, runWorkflow } from "@little-stack/workflow";
import { tools } from "./noop-tools.mjs";

const [lwirPath, dataDir] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(lwirPath, "utf8"));
const workflow = defineWorkflow({ id: plan.metadata.name, input: { type: "object" }, output: { mode: "json" }, tools: ["noop"], plan });
const world = localWorld({ dataDir, durability: "strict" });
const result = await runWorkflow(workflow, {}, { world, tools });
const events = result.events;
const at = (type) => Date.parse(events.find((event) => event.type === type).recordedAt);
await world.close();
process.stdout.write(JSON.stringify({ runId: result.runId, loggedMs: at("RunCompleted") - at("RunStarted") }));
