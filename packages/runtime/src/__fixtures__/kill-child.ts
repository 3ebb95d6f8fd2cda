// A child process for the kill tests: runs (or resumes) one run of the kill scenario in a local
// world and prints the run output as JSON on stdout. Arguments: dataDir logFile runId delayMs
// [hangAtN markerFile]; KILL_CHILD_HARNESS=default runs the default workflowHarness (real sandbox);
// KILL_CHILD_SCENARIO picks the workflow (`loop`, the default, or `side-by-side`);
// KILL_CHILD_MODEL_URL is the parent's loopback server.
import { localWorld } from "@little-stack/local-world";
import { executeWorkflowVersion } from "../execution/execute-workflow-version.js";
import { createFakeWorkerHarness } from "./fake-worker-harness.js";
import { killScenarios, scenarioModel, scenarioTools, type KillScenarioName, type ScenarioOptions } from "./kill-scenario.js";
import { versionOf } from "./workflows.js";

const [dataDir, logFile, runId, delay, hangAtN, markerFile] = process.argv.slice(2);
const useDefaultHarness = process.env.KILL_CHILD_HARNESS === "default";
const scenario = killScenarios[(process.env.KILL_CHILD_SCENARIO ?? "loop") as KillScenarioName];
const options: ScenarioOptions = {
  logFile: logFile!,
  delayMs: Number(delay),
  ...(hangAtN === undefined ? {} : { hangAtN: Number(hangAtN), markerFile: markerFile! }),
};
const world = localWorld({ dataDir: dataDir!, maxConcurrentSteps: 4 });
const result = await executeWorkflowVersion({
  world,
  workflowVersion: versionOf(scenario.workflow({ realCode: useDefaultHarness })),
  input: scenario.input,
  runId: runId!,
  tools: scenarioTools(options),
  models: { writer: scenarioModel(process.env.KILL_CHILD_MODEL_URL!) },
  ...(useDefaultHarness ? {} : { workerHarness: createFakeWorkerHarness() }),
});
await world.close();
process.stdout.write(`${JSON.stringify(result.output)}\n`);
