// Not a benchmark: a CPU profile of one warm runWorkflow of a long chain of trivial tool.call steps
// (after two unprofiled runs), written as a .cpuprofile for Chrome DevTools or `speedscope`.
//   node --import tsx src/profile-steps.ts        (against the built dist/)
//   PROFILE_DURABILITY=strict PROFILE_STEPS=2000 PROFILE_OUT=/tmp/steps.cpuprofile …
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Session } from "node:inspector/promises";
import { benchRoot, chainLwir, fixedPlanWorkflow, runWorkflowOnce, type Durability } from "./step-cost-workload.js";

const durability = (process.env.PROFILE_DURABILITY ?? "process") as Durability;
const steps = Number(process.env.PROFILE_STEPS ?? 2000);
const out = process.env.PROFILE_OUT ?? "/tmp/little-profile/steps.cpuprofile";
const root = benchRoot("profile-");
const workflow = fixedPlanWorkflow(chainLwir(steps));
for (let round = 0; round < 2; round += 1) await runWorkflowOnce({ root, workflow, durability });
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const { ms } = await runWorkflowOnce({ root, workflow, durability });
const { profile } = await session.post("Profiler.stop");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(profile));
rmSync(root, { recursive: true, force: true });
console.log(`profiled run: ${steps} steps, ${durability}, ${(ms / steps).toFixed(3)} ms/step → ${out}`);
