// Benchmark: overhead of the durable agent loop (@little-stack/harness).
//  1. Replay: a recorded 100-turn session (one tool call per turn) fed back from the event log,
//     per turn, against plain generateText over the same scripted model with no recording.
//  2. Live: turns against the loopback OpenAI-compatible server (real provider code, real HTTP),
//     durable (recorded to a memory sink) against plain generateText over the same server.
// Run: pnpm --filter @little-stack-apps/bench run harness
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  createHarnessEventRecorder,
  createMemoryHarnessEventSink,
  durableGenerateText,
  openHarnessSession,
  type HarnessEventEnvelope,
  type PlannerManifest,
} from "@little-stack/harness";
import { createScriptedModel, startLoopbackOpenAIServer, type ScriptedTurn } from "@little-stack/testing";

// `ai` and the openai-compatible provider are loaded from @little-stack/testing's own dependencies
// (the same ESM builds the harness uses); the bench declares them too, for their types.
const requireFromTesting = createRequire(import.meta.resolve("@little-stack/testing"));
const esmEntry = (name: string) => pathToFileURL(join(dirname(requireFromTesting.resolve(`${name}/package.json`)), "dist/index.mjs")).href;
const ai = (await import(esmEntry("ai"))) as typeof import("ai");
const { createOpenAICompatible } = (await import(esmEntry("@ai-sdk/openai-compatible"))) as typeof import("@ai-sdk/openai-compatible");

const replayTurns = 100;
const liveTurns = 20;
const warmupRuns = 3;
const measuredRuns = 15;

const manifest: PlannerManifest = {
  harnessId: "bench@1",
  plannerModelSlotId: "scripted",
  systemPromptHash: "sha256:0000000000000000000000000000000000000000000000000000000000000001",
  skillsHash: "sha256:0000000000000000000000000000000000000000000000000000000000000002",
  workflowDefinitionHash: "sha256:0000000000000000000000000000000000000000000000000000000000000003",
  globalToolsHash: "sha256:0000000000000000000000000000000000000000000000000000000000000004",
  bashCapabilitiesHash: "sha256:0000000000000000000000000000000000000000000000000000000000000005",
  memoryStoreIds: [],
};

function scriptOf(turns: number): ScriptedTurn[] {
  const script: ScriptedTurn[] = [];
  for (let turn = 1; turn < turns; turn += 1) {
    script.push({
      text: `Step ${turn}: looking up item ${turn}.`,
      toolCalls: [{ toolName: "lookup", args: { item: turn } }],
      usage: { inputTokens: 200 + turn * 40, outputTokens: 30, cachedInputTokens: turn * 32, reasoningTokens: 8 },
    });
  }
  script.push({ text: "All items looked up.", usage: { inputTokens: 200 + turns * 40, outputTokens: 12 } });
  return script;
}

const tools = {
  lookup: ai.tool({
    description: "Looks an item up.",
    inputSchema: ai.jsonSchema<{ item: number }>({ type: "object", properties: { item: { type: "number" } }, required: ["item"] }),
    execute: async ({ item }) => ({ item, title: `Item ${item}`, tags: ["a", "b", "c"] }),
  }),
};

const scope = { runId: "run_00000000000000be", logDir: "/unused", role: "planner" as const };
const prompt = "Look up every item, one per turn.";

async function plainRun(model: Parameters<typeof ai.generateText>[0]["model"], turns: number): Promise<void> {
  const result = await ai.generateText({ model, tools, prompt, stopWhen: ai.stepCountIs(turns + 1) });
  if (result.steps.length !== turns) throw new Error(`expected ${turns} steps, got ${result.steps.length}`);
}

async function durableRun(options: {
  model: Parameters<typeof ai.generateText>[0]["model"];
  turns: number;
  events: readonly HarnessEventEnvelope[];
}): Promise<{ events: readonly HarnessEventEnvelope[]; liveModelCalls: number; liveToolCalls: number }> {
  const sink = createMemoryHarnessEventSink(scope.runId, options.events);
  const recorder = createHarnessEventRecorder({ sink });
  const session = await openHarnessSession({ recorder, scope, sessionKey: "bench", task: { kind: "plan" }, manifest });
  const result = await durableGenerateText(session, { model: options.model, tools, prompt, stopWhen: ai.stepCountIs(options.turns + 1) });
  if (result.steps.length !== options.turns) throw new Error(`expected ${options.turns} steps, got ${result.steps.length}`);
  await session.complete({ output: result.text });
  const stats = session.stats();
  return { events: sink.events, liveModelCalls: stats.liveModelCalls, liveToolCalls: stats.liveToolCalls };
}

/**
 * Wall time, and this process's CPU time (user + system), which is steadier than wall time when
 * other processes compete for the cores. Medians and p95 over the measured runs.
 */
async function measure(run: () => Promise<unknown>): Promise<{ median: number; p95: number; cpuMedian: number }> {
  for (let index = 0; index < warmupRuns; index += 1) await run();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let index = 0; index < measuredRuns; index += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await run();
    const cpu = process.cpuUsage(cpuStarted);
    samples.push(performance.now() - started);
    cpuSamples.push((cpu.user + cpu.system) / 1000);
  }
  const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  return { median: median(samples), p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN, cpuMedian: median(cpuSamples) };
}

const perTurn = (ms: number, turns: number) => `${(ms / turns).toFixed(3)} ms/turn`;

// 1. Replay of a 100-turn session.
const script = scriptOf(replayTurns);
const recorded = await durableRun({ model: createScriptedModel({ script }), turns: replayTurns, events: [] });
const replayCheck = await durableRun({ model: createScriptedModel({ script: [] }), turns: replayTurns, events: recorded.events });
if (replayCheck.liveModelCalls !== 0 || replayCheck.liveToolCalls !== 0) throw new Error("replay made live calls");

const baseline = await measure(() => plainRun(createScriptedModel({ script }), replayTurns));
const recording = await measure(() => durableRun({ model: createScriptedModel({ script }), turns: replayTurns, events: [] }));
const replay = await measure(() => durableRun({ model: createScriptedModel({ script: [] }), turns: replayTurns, events: recorded.events }));

console.log(`harness replay benchmark — ${replayTurns}-turn session, 1 tool call per turn, ${recorded.events.length} events; median of ${measuredRuns} runs (p95)`);
console.log(`  baseline  plain generateText, scripted model, no recording : ${perTurn(baseline.median, replayTurns)} (p95 ${perTurn(baseline.p95, replayTurns)})`);
console.log(`  live      durable loop recording to a memory sink         : ${perTurn(recording.median, replayTurns)} (p95 ${perTurn(recording.p95, replayTurns)})  ×${(recording.median / baseline.median).toFixed(2)} baseline`);
console.log(`  replay    durable loop fed from the log, 0 model/tool calls: ${perTurn(replay.median, replayTurns)} (p95 ${perTurn(replay.p95, replayTurns)})  ×${(replay.median / baseline.median).toFixed(2)} baseline`);
const replayOverhead = (replay.median - baseline.median) / replayTurns;
const replayCpuOverhead = (replay.cpuMedian - baseline.cpuMedian) / replayTurns;
console.log(`  CPU time per turn: baseline ${perTurn(baseline.cpuMedian, replayTurns)}, live ${perTurn(recording.cpuMedian, replayTurns)}, replay ${perTurn(replay.cpuMedian, replayTurns)}`);
const verdict = (value: number) => (value < 1 ? "met" : "NOT met");
console.log(
  `  replay overhead per recorded turn (replay − baseline), target < 1 ms/turn: wall ${replayOverhead.toFixed(3)} ms (${verdict(replayOverhead)}), CPU ${replayCpuOverhead.toFixed(3)} ms (${verdict(replayCpuOverhead)})`,
);
console.log(`  load average (1 min) during the run: ${(await import("node:os")).loadavg()[0]?.toFixed(1)} on ${(await import("node:os")).availableParallelism()} cores`);

// 2. Live turns against the loopback server.
const liveScript = scriptOf(liveTurns);
const runsNeeded = (warmupRuns + measuredRuns) * 2;
const server = await startLoopbackOpenAIServer({ script: Array.from({ length: runsNeeded }, () => liveScript).flat() });
try {
  const provider = createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "bench", includeUsage: true });
  const plainLive = await measure(() => plainRun(provider("loopback-model"), liveTurns));
  const durableLive = await measure(() => durableRun({ model: provider("loopback-model"), turns: liveTurns, events: [] }));
  console.log(`harness live benchmark — ${liveTurns}-turn session against the loopback OpenAI-compatible server (HTTP on 127.0.0.1, JSON responses)`);
  console.log(`  baseline  plain generateText over HTTP                     : ${perTurn(plainLive.median, liveTurns)} (p95 ${perTurn(plainLive.p95, liveTurns)})`);
  console.log(`  durable   recorded to a memory sink                        : ${perTurn(durableLive.median, liveTurns)} (p95 ${perTurn(durableLive.p95, liveTurns)})  ×${(durableLive.median / plainLive.median).toFixed(2)} baseline`);
  console.log(`  CPU time per turn (this process, server included): baseline ${perTurn(plainLive.cpuMedian, liveTurns)}, durable ${perTurn(durableLive.cpuMedian, liveTurns)}`);
  console.log(`  live overhead per turn: wall ${perTurn(durableLive.median - plainLive.median, liveTurns)}, CPU ${perTurn(durableLive.cpuMedian - plainLive.cpuMedian, liveTurns)}; server requests: ${server.requestCount}`);
} finally {
  await server.close();
}
