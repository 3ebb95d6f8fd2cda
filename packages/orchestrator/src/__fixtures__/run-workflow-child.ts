// Runs candidate.review once (one cycle) and SIGKILLs itself right after the "parse" step's
// StepCompleted is durable: argv = dataDir runId.
import { localWorld } from "@little-stack/local-world";
import { runWorkflow } from "../run/run-workflow.js";
import { candidateReviewPlan, candidateReviewSetup } from "./candidate-review.js";
import { createFakePlanner } from "./fake-model.js";
import { killingWorld, outerLoopInput } from "./outer-loop-workflow.js";

const [dataDir, runId] = process.argv.slice(2) as [string, string];
const world = killingWorld(localWorld({ dataDir }), (target, types, payloads) => target === runId && types.includes("StepCompleted") && payloads.some((payload) => (payload as { stepId?: string }).stepId === "parse"));
const { workflow, tools } = candidateReviewSetup({ planner: createFakePlanner(() => candidateReviewPlan()) });
await runWorkflow(workflow, outerLoopInput, { world, tools, runId });
process.stdout.write("finished without being killed\n");
