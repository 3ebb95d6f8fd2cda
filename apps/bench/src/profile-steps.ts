// Not a benchmark: a CPU profile of one warm runWorkflow of a long chain of trivial tool.call steps
// (after two unprofiled runs), written as a .cpuprofile for Chrome DevTools or `speedscope`.
//   node --import tsx src/profile-steps.ts        (against the built dist/)
//   PROFILE_DURABILITY=strict PROFILE_STEPS=2000 PROFILE_OUT=/tmp/steps.cpuprofile …
//   PROFILE_FAN=100 PROFILE_RUNS=30 …   a 100-branch fan-out (all in flight) instead, run 30 times
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Session } from "node:inspector/promises";
import { benchRoot, chainLwir, fanOutLwir, fixedPlanWorkflow, runWorkflowOnce, type Durability } from "./step-cost-workload.js";

const durability = (process.env.PROFILE_DURABILITY ?? "process") as Durability;
const fan = process.env.PROFILE_FAN === undefined ? undefined : Number(process.env.PROFILE_FAN);
const steps = fan ?? Number(process.env.PROFILE_STEPS ?? 2000);
const runs = Number(process.env.PROFILE_RUNS ?? 1);
const out = process.env.PROFILE_OUT ?? "/tmp/little-profile/steps.cpuprofile";
const root = benchRoot("profile-");
const workflow = fixedPlanWorkflow(fan === undefined ? chainLwir(steps) : fanOutLwir(fan));
const once = () =>
  runWorkflowOnce({ root, workflow, durability, ...(fan === undefined ? {} : { input: { items: Array.from({ length: fan }, (_, i) => ({ i })) }, maxConcurrentSteps: fan }) });
for (let round = 0; round < 2; round += 1) await once();
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
let ms = 0;
for (let run = 0; run < runs; run += 1) ms += (await once()).ms / runs;
const { profile } = await session.post("Profiler.stop");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(profile));
rmSync(root, { recursive: true, force: true });
console.log(`profiled ${runs} run(s): ${fan === undefined ? `${steps} steps` : `a ${fan}-branch fan-out`}, ${durability}, ${ms.toFixed(1)} ms per run, ${(ms / steps).toFixed(3)} ms/step → ${out}`);
