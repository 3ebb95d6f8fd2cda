// pnpm --filter @little-stack-apps/plan-once-run-many start [-- --data-dir DIR] [--run-id ID] [--documents N] [--max-concurrent N]
import { parseArgs } from "node:util";
import { runDemo } from "./run-demo.js";

// pnpm forwards a literal "--" before the script's own flags.
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--"));
const { values } = parseArgs({
  args,
  options: {
    "data-dir": { type: "string", default: ".little-workflow" },
    "run-id": { type: "string", default: "pipeline-plan-once-run-many" },
    documents: { type: "string", default: "50" },
    "max-concurrent": { type: "string", default: "10" },
  },
});

const documents = Number(values.documents);
const maxConcurrentSubRuns = Number(values["max-concurrent"]);
if (!Number.isInteger(documents) || documents < 1 || !Number.isInteger(maxConcurrentSubRuns) || maxConcurrentSubRuns < 1) {
  process.stderr.write("plan-once-run-many: --documents and --max-concurrent must be positive integers\n");
  process.exit(2);
}
let classified = 0;
const summary = await runDemo({
  dataDir: values["data-dir"],
  runId: values["run-id"],
  documents,
  maxConcurrentSubRuns,
  onClassified: (documentId) => process.stderr.write(`classified ${documentId} (${++classified} in this process)\n`),
});
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
