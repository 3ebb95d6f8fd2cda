// Not a benchmark: a CPU profile of re-running a completed chain of trivial tool.call steps
// (issue 18 item 4: what a completed run's re-run spends), written as a .cpuprofile.
//   node --import tsx src/profile-rerun.ts        (against the built dist/)
//   PROFILE_STEPS=200 PROFILE_ROUNDS=50 PROFILE_OUT=/tmp/rerun.cpuprofile …
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Session } from "node:inspector/promises";
import { localWorld, runWorkflow } from "@little-stack/workflow";
import { benchRoot, chainLwir, fixedPlanWorkflow, median, noopTools, runWorkflowOnce } from "./step-cost-workload.js";

const steps = Number(process.env.PROFILE_STEPS ?? 200);
const rounds = Number(process.env.PROFILE_ROUNDS ?? 50);
const out = process.env.PROFILE_OUT ?? "/tmp/little-profile/rerun.cpuprofile";
const root = benchRoot("profile-rerun-");
const workflow = fixedPlanWorkflow(chainLwir(steps));
const done = await runWorkflowOnce({ root, workflow, durability: "strict", keep: true });
const world = localWorld({ dataDir: done.dataDir });
const rerun = async (): Promise<number> => {
  const start = performance.now();
  await runWorkflow(workflow, {}, { world, tools: noopTools, runId: done.runId });
  return performance.now() - start;
};
for (let round = 0; round < 5; round += 1) await rerun();
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const times: number[] = [];
for (let round = 0; round < rounds; round += 1) times.push(await rerun());
const { profile } = await session.post("Profiler.stop");
await world.close();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(profile));
rmSync(root, { recursive: true, force: true });
console.log(`profiled ${rounds} re-runs of a completed ${steps}-step run (${done.events} events): median ${median(times).toFixed(2)} ms (profiled) → ${out}`);
