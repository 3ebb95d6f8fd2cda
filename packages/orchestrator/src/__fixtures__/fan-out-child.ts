// Runs the 50-document pipeline and reports each sub-run StepCompleted on stdout ("step <runId>"),
// so the parent can SIGKILL it at a random point: argv = dataDir runId.
import { localWorld, type World } from "@little-stack/local-world";
import { runOrchestration } from "../orchestration/run-orchestration.js";
import { classifySetup, createFanOutOrchestrator, documents } from "./fan-out.js";

const [dataDir, runId] = process.argv.slice(2) as [string, string];
const base = localWorld({ dataDir });
const world = new Proxy(base, {
  get(target, property, receiver) {
    if (property === "appendEvents") {
      return async (target_runId: string, events: { type: string; payload: unknown } | readonly { type: string; payload: unknown }[]) => {
        const stored = await target.appendEvents(target_runId, events as never);
        const list = Array.isArray(events) ? events : [events];
        if (list.some((event) => event.type === "StepCompleted")) process.stdout.write(`step ${target_runId}\n`);
        return stored;
      };
    }
    const value = Reflect.get(target, property, receiver) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
}) as World;
const items = documents(50);
const { tools, workflow } = classifySetup({ hooks: { onStart: () => new Promise((resolve) => setTimeout(resolve, 5)) } });
const result = await runOrchestration({ workflows: [workflow], orchestrator: { model: createFanOutOrchestrator(items) }, input: { documents: items }, world, tools, runId, maxConcurrentSubRuns: 10 });
process.stdout.write(`finished ${JSON.stringify(result.output)}\n`);
