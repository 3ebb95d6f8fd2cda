// The process step-instructions counts (under valgrind): RUNS runWorkflow runs of an N-step chain
// of trivial tool.call steps, process durability, each into a fresh data dir. Plain node (no
// TypeScript loader). Everything comes from the tree given, the SDK's built dist/ and the `ai`
// package the tool is made with, so that two trees compare like for like (a tool made by one
// copy of `ai` and read by another takes other code paths).
//   node --single-threaded src/instructions-child.mjs <tree> <lwir.json> <data-root> <runs>
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [tree, lwirPath, root, runs] = process.argv.slice(2);
const sdk = await import(pathToFileURL(join(tree, "packages/workflow/dist/index.js")).href);
const { jsonSchema, tool } = await import(pathToFileURL(createRequire(join(tree, "apps/bench/package.json")).resolve("ai")).href);
const tools = {
  noop: tool({
    description: "Returns its input.",
    inputSchema: jsonSchema({ type: "object", properties: { i: { type: "number" } }, required: ["i"] }),
    execute: async (input) => input,
  }),
};
const plan = JSON.parse(readFileSync(lwirPath, "utf8"));
const workflow = sdk.defineWorkflow({ id: plan.metadata.name, input: { type: "object" }, output: { mode: "json" }, tools: ["noop"], plan });
mkdirSync(root, { recursive: true });
for (let run = 0; run < Number(runs); run += 1) {
  // Each run starts from a collected heap: when a major collection falls depends on everything
  // allocated before, and one landing in another run moves the count by several percent.
  globalThis.gc?.();
  const dataDir = join(root, `run-${run}`);
  const world = sdk.localWorld({ dataDir, durability: "process" });
  await sdk.runWorkflow(workflow, {}, { world, tools, runId: `run-${run}` });
  await world.close();
  rmSync(dataDir, { recursive: true, force: true });
}
