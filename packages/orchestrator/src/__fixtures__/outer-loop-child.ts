// Runs a 3-cycle outer loop and SIGKILLs itself at a chosen point: argv = dataDir runId killPoint.
// killPoint: "after-cycle-<n>" (right after OuterLoopCycleCompleted of cycle n) or
// "in-cycle-<n>" (right after the cycle's StepCompleted of "parse").
import { localWorld } from "@little-stack/local-world";
import { runWorkflow } from "../run/run-workflow.js";
import { cycleRunIdFor, outerLoopIdFor } from "../outer-loop/run-outer-loop.js";
import { killingWorld, outerLoopInput, outerLoopSetup } from "./outer-loop-workflow.js";

const [dataDir, runId, killPoint] = process.argv.slice(2) as [string, string, string];
const [, where, cycleText] = /^(after-cycle|in-cycle)-(\d+)$/.exec(killPoint)!;
const cycle = Number(cycleText);
const outerLoopId = outerLoopIdFor(runId);
const world = killingWorld(localWorld({ dataDir }), (target, types, payloads) => {
  if (where === "after-cycle") return target === runId && types.includes("OuterLoopCycleCompleted") && (payloads[0] as { cycleNumber: number }).cycleNumber === cycle;
  return target === cycleRunIdFor(outerLoopId, cycle) && types.includes("StepCompleted") && payloads.some((payload) => (payload as { stepId?: string }).stepId === "parse");
});
const { workflow, tools } = outerLoopSetup({ doneAfter: 3, maxOuterCycles: 3 });
await runWorkflow(workflow, outerLoopInput, { world, tools, runId });
process.stdout.write("finished without being killed\n");
