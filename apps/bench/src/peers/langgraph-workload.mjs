// LangGraph + SqliteSaver: the step-cost workload (issue 18), run by step-cost-peers.bench.ts
// inside the temp dir it installed LangGraph into. A chain of `steps` nodes each returning the
// state unchanged, and a fan-out of `branches` Send()s to one node whose outputs a reducer
// gathers. Checkpoints go to a fresh SQLite file per run (durability "sync": each step's
// checkpoint is written before the next step starts, the closest to our strict mode; LangGraph's
// default "async" writes them while the next step runs). Prints one JSON line.
import { join } from "node:path";
import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

const [dataDir, stepsText, branchesText, durability = "sync"] = process.argv.slice(2);
const steps = Number(stepsText);
const branches = Number(branchesText);

const ChainState = Annotation.Root({ i: Annotation() });
function chain() {
  const graph = new StateGraph(ChainState);
  for (let index = 0; index < steps; index += 1) graph.addNode(`s${index}`, (state) => ({ i: state.i }));
  graph.addEdge(START, "s0");
  for (let index = 1; index < steps; index += 1) graph.addEdge(`s${index - 1}`, `s${index}`);
  graph.addEdge(`s${steps - 1}`, END);
  return graph;
}

const FanState = Annotation.Root({
  items: Annotation(),
  results: Annotation({ reducer: (left, right) => left.concat(right), default: () => [] }),
});
function fan() {
  return new StateGraph(FanState)
    .addNode("work", (item) => ({ results: [{ i: item.i }] }))
    .addConditionalEdges(START, (state) => state.items.map((item) => new Send("work", item)))
    .addEdge("work", END);
}

let databases = 0;
async function timed(graphOf, input) {
  databases += 1;
  const checkpointer = SqliteSaver.fromConnString(join(dataDir, `langgraph-${databases}.db`));
  const app = graphOf().compile({ checkpointer });
  const start = performance.now();
  await app.invoke(input, { configurable: { thread_id: `t${databases}` }, recursionLimit: steps + 10, durability });
  return performance.now() - start;
}

const items = Array.from({ length: branches }, (_, i) => ({ i }));
// Warm-up runs (PEER_WARMUP_RUNS, default 1): step-cost-peers warms every engine the same number of runs.
for (let run = 0; run < Number(process.env.PEER_WARMUP_RUNS ?? 1); run += 1) {
  await timed(chain, { i: 0 });
  await timed(fan, { items });
}
const chainMs = await timed(chain, { i: 0 });
const fanMs = await timed(fan, { items });
process.stdout.write(`${JSON.stringify({ chainMs, fanMs, steps, branches, durability })}\n`);
