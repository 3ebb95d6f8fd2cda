// Benchmark: a code.run step through the default workflowHarness (durable session, recorded tool
// bridge, output schema check) against executeCode alone on the same warm sandbox.
//  1. Live: execute_step code.run that calls one tool, recorded into an in-memory sink.
//  2. Resume: the same step re-run from a log that holds the tool result (code runs again, the tool
//     call is answered from the record).
//  3. Replay: the same step from a log where the session completed (nothing runs).
// Baseline, in the same process: executeCode with a plain callTool.
// Run: pnpm --filter @little-stack-apps/bench run workflow-harness
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  createHarnessEventRecorder,
  createMemoryHarnessEventSink,
  workflowHarness,
  type HarnessEventEnvelope,
  type WorkerManifest,
  type WorkflowHarnessContext,
} from "@little-stack/harness";
import type { LwirCodeRunStep } from "@little-stack/lwir";
import { executeCode, shutdownSandboxWorkers } from "@little-stack/sandbox";
import { jsonSchema, tool } from "ai";

const runs = 60;
const source = `export async function run({ input, tools }) {
  const found = await tools.lookup({ id: input.id });
  return { id: found.id, doubled: found.score * 2 };
}
`;
const files = { "main.js": { content: source, sha256: `sha256:${createHash("sha256").update(source, "utf8").digest("hex")}` } };
const step: LwirCodeRunStep = {
  id: "score",
  uses: "code.run",
  with: { entrypoint: "main.js", files, sandbox: { network: "deny" } },
  output: { mode: "object", schema: { type: "object", properties: { id: { type: "number" }, doubled: { type: "number" } }, required: ["id", "doubled"] } },
};
const lookup = tool({
  description: "Looks up a score.",
  inputSchema: jsonSchema<{ id: number }>({ type: "object", properties: { id: { type: "number" } }, required: ["id"] }),
  execute: async ({ id }) => ({ id, score: 21 }),
});
const manifest: WorkerManifest = {
  harnessId: "workflowHarness@0.2.0",
  workflowDefinitionHash: "sha256:0",
  workflowVersionId: "wfver_bench",
  stepPath: "score",
  stepConfigHash: "sha256:1",
  skillsHash: "sha256:2",
  allowedToolsHash: "sha256:3",
  bashCapabilitiesHash: "sha256:4",
  memoryStoreIds: [],
};
const none = {
  specificationVersion: "v3" as const,
  provider: "none",
  modelId: "none",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error("no model")),
  doStream: () => Promise.reject(new Error("no model")),
};

function context(runId: string, events: readonly HarnessEventEnvelope[] = []) {
  const sink = createMemoryHarnessEventSink(runId, events);
  const ctx: WorkflowHarnessContext = {
    scope: { runId, logDir: "/tmp/unused", role: "worker.code-run" },
    model: { slotId: "none", provider: "none", modelId: "none", model: none },
    tools: { lookup },
    memoryMounts: [],
    scratchMounts: [],
    skills: [],
    mounts: [],
    durability: sink,
    recorder: createHarnessEventRecorder({ sink }),
    abortSignal: new AbortController().signal,
    manifest,
  };
  return { ctx, sink };
}

const task = { kind: "execute_step" as const, step, stepInput: { id: 7 }, stepContext: { stepPath: "score", visitIndex: 0 } };

async function time(label: string, once: (index: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await once(index);
    samples.push(performance.now() - started);
  }
  return report(label, samples);
}

function report(label: string, samples: number[]): number {
  samples.sort((left, right) => left - right);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(48)} median ${median.toFixed(2)} ms  p90 ${samples[Math.floor(samples.length * 0.9)]!.toFixed(2)} ms`);
  return median;
}

async function main(): Promise<void> {
  // Warm the sandbox workers first.
  for (let index = 0; index < 5; index += 1) {
    await executeCode({ files, entrypoint: "main.js", input: { id: 7 }, determinismSeed: "warm", allowedTools: ["lookup"], callTool: async () => ({ id: 7, score: 21 }) });
  }
  // Baseline and live runs alternate, so machine load drifts over both alike.
  const logs: HarnessEventEnvelope[][] = [];
  const baselineSamples: number[] = [];
  const liveSamples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    let started = performance.now();
    await executeCode({ files, entrypoint: "main.js", input: { id: 7 }, determinismSeed: "run/score", allowedTools: ["lookup"], callTool: async ({ args }) => ({ id: (args as { id: number }).id, score: 21 }) });
    baselineSamples.push(performance.now() - started);
    const { ctx, sink } = context(`run_live_${index}`);
    started = performance.now();
    await workflowHarness.run(task, ctx);
    liveSamples.push(performance.now() - started);
    logs.push([...sink.events]);
  }
  const baseline = report("baseline: executeCode alone", baselineSamples);
  const live = report("workflowHarness code.run, live (recorded)", liveSamples);
  const resume = await time("workflowHarness code.run, resume (tool from log)", async (index) => {
    const events = logs[index]!;
    const cut = events.findIndex((event) => event.type === "harness.tool_call.succeeded");
    const { ctx } = context(`run_live_${index}`, events.slice(0, cut + 1));
    await workflowHarness.run(task, ctx);
  });
  const replay = await time("workflowHarness code.run, replay (completed)", async (index) => {
    const { ctx } = context(`run_live_${index}`, logs[index]!);
    await workflowHarness.run(task, ctx);
  });
  console.log(`ratios vs baseline: live ${(live / baseline).toFixed(2)}x, resume ${(resume / baseline).toFixed(2)}x, replay ${(replay / baseline).toFixed(3)}x`);
  console.log(`harness overhead per live code.run step: ${(live - baseline).toFixed(2)} ms`);
  await shutdownSandboxWorkers();
}

await main();
