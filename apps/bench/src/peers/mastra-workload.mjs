// Mastra + LibSQLStore: the step-cost workload (issue 18), run by step-cost-peers.bench.ts inside
// the temp dir it installed Mastra into. One process: warm-up runs (PEER_WARMUP_RUNS), then the measured runs, each
// on a fresh database file. Prints one JSON line { chainMs, fanMs, steps, branches }.
import { join } from "node:path";
import { Mastra } from "@mastra/core";
import { createStep, createWorkflow } from "@mastra/core/workflows";
import { LibSQLStore } from "@mastra/libsql";
import { z } from "zod";

const [dataDir, stepsText, branchesText] = process.argv.slice(2);
const steps = Number(stepsText);
const branches = Number(branchesText);
const value = z.object({ i: z.number() });

// A trivial step returning its input, like the noop tool.call of ours.
const noop = (id) => createStep({ id, inputSchema: value, outputSchema: value, execute: async ({ inputData }) => inputData });

function chain() {
  let workflow = createWorkflow({ id: "chain", inputSchema: value, outputSchema: value });
  for (let index = 0; index < steps; index += 1) workflow = workflow.then(noop(`s${index}`));
  return workflow.commit();
}

function fan() {
  return createWorkflow({ id: "fan", inputSchema: z.array(value), outputSchema: z.array(value) })
    .foreach(noop("work"), { concurrency: branches })
    .commit();
}

let databases = 0;
async function timed(workflowOf, inputData) {
  databases += 1;
  const storage = new LibSQLStore({ url: `file:${join(dataDir, `mastra-${databases}.db`)}` });
  const workflow = workflowOf();
  const mastra = new Mastra({ workflows: { [workflow.id]: workflow }, storage, logger: false });
  const registered = mastra.getWorkflow(workflow.id);
  await storage.init();
  const start = performance.now();
  const run = await registered.createRunAsync();
  const result = await run.start({ inputData });
  const ms = performance.now() - start;
  if (result.status !== "success") throw new Error(`mastra run ${result.status}: ${JSON.stringify(result.error ?? result).slice(0, 300)}`);
  return ms;
}

const items = Array.from({ length: branches }, (_, i) => ({ i }));
// Warm-up runs (PEER_WARMUP_RUNS, default 1): step-cost-peers warms every engine the same number of runs.
for (let run = 0; run < Number(process.env.PEER_WARMUP_RUNS ?? 1); run += 1) {
  await timed(chain, { i: 0 });
  await timed(fan, items);
}
const chainMs = await timed(chain, { i: 0 });
const fanMs = await timed(fan, items);
process.stdout.write(`${JSON.stringify({ chainMs, fanMs, steps, branches })}\n`);
process.exit(0);
