// The quickstart: seed 001's support.summarize-ticket workflow, end to end. Define it, let the
// planner compile it to LWIR, run it durably, print the output, then inspect the run with the
// `little` CLI (events, report) and run it again with the same run id (nothing is called twice).
// Offline by default: scripted models stand in for openai("gpt-5") and openai("gpt-4o-mini").
// With OPENAI_API_KEY set the real OpenAI models plan and run it.
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openai } from "@ai-sdk/openai";
import { canonicalJson } from "@little-stack/canonical";
import { runCliCapturingOutput } from "@little-stack/cli";
import { createScriptedModel } from "@little-stack/testing";
import { defineWorkflow, localWorld, model, runWorkflow } from "@little-stack/workflow";
import { z } from "zod";

// In-process `little`; its stderr (a run's progress) is shown as it is written.
const captureLittle = (argv: readonly string[]) => runCliCapturingOutput(argv, { echoStderrTo: process.stderr });

const appDir = fileURLToPath(new URL("../", import.meta.url));
const dataDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "little-quickstart-"));
mkdirSync(dataDir, { recursive: true });
const runId = `run_quickstart${Date.now().toString(16)}`;
const ticket = JSON.parse(readFileSync(join(appDir, "ticket.json"), "utf8")) as { ticketId: string; transcript: string };

const say = (text: string): void => void process.stdout.write(`${text}\n`);

// Offline stand-ins: the planner submits the LWIR a planner would write for this definition
// (support-ticket.lwir.json), the worker answers the one ai.generate step.
const online = Boolean(process.env["OPENAI_API_KEY"]);
const TicketInput = z.object({ ticketId: z.string(), transcript: z.string() });
const TicketSummary = z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) });
// A planner copies the definition's schemas from its snapshot exactly (the binding pass checks it).
const plannedLwir = {
  ...(JSON.parse(readFileSync(join(appDir, "support-ticket.lwir.json"), "utf8")) as Record<string, unknown>),
  input: { schema: z.toJSONSchema(TicketInput) },
  output: { schema: z.toJSONSchema(TicketSummary) },
};
const scriptedPlanner = createScriptedModel({ provider: "openai.chat", modelId: "gpt-5", script: [{ toolCalls: [{ toolName: "submit_workflow", args: { lwir: plannedLwir } }], usage: { inputTokens: 2_400, outputTokens: 610, cachedInputTokens: 1_024 } }] });
const scriptedWorker = createScriptedModel({
  provider: "openai.chat",
  modelId: "gpt-4o-mini",
  script: [{ text: JSON.stringify({ summary: "The Android app 4.2.0 crashes at login for the whole team, blocking invoice approvals.", severity: "high" }), usage: { inputTokens: 182, outputTokens: 31, cachedInputTokens: 128 } }],
});

// 1. Define (seed 001).
const summarizeTicket = defineWorkflow({
  id: "support.summarize-ticket",
  description: "Summarize a support ticket and classify its severity.",
  input: TicketInput,
  output: TicketSummary,
  models: [model(online ? openai("gpt-4o-mini") : scriptedWorker, { description: "Fast model for short structured outputs." })],
  planner: {
    model: online ? openai("gpt-5") : scriptedPlanner,
    system: "You design support-ticket workflows. Keep plans minimal: one ai.generate step is enough for a summary.",
  },
});

async function run(): Promise<{ output: unknown; workflowVersionId: string }> {
  const world = localWorld({ dataDir });
  try {
    const result = await runWorkflow(summarizeTicket, ticket, { world, runId });
    return { output: result.output, workflowVersionId: result.workflowVersionId };
  } finally {
    await world.close();
  }
}

let failed = false;
try {
  say(`Little Workflow quickstart — ${online ? "OpenAI gpt-5 plans, gpt-4o-mini runs" : "offline: scripted gpt-5 planner and gpt-4o-mini worker (set OPENAI_API_KEY for real models)"}`);
  say(`data dir: ${dataDir}\n`);

  // 2 + 3. Plan and run: runWorkflow compiles the definition to LWIR (planner session), locks it, runs it.
  say(`runWorkflow(summarizeTicket, { ticketId: "${ticket.ticketId}", … }, { world, runId: "${runId}" })`);
  const first = await run();
  say(`→ workflow version ${first.workflowVersionId}`);
  say(`→ output ${JSON.stringify(first.output, null, 2)}\n`);

  // 4. Events and report with the CLI.
  say(`$ little events ${runId} --type 'Step*' --data-dir ${dataDir}`);
  const events = await captureLittle(["events", runId, "--type", "Step*", "--data-dir", dataDir]);
  for (const line of events.stdout.trimEnd().split("\n").filter((text) => text !== "")) {
    const event = JSON.parse(line) as { sequence: number; type: string; payload: { stepPath?: string } };
    say(`#${event.sequence} ${event.type} ${event.payload.stepPath ?? ""}`);
  }
  say(`\n$ little report ${runId} --data-dir ${dataDir}`);
  process.stdout.write((await captureLittle(["report", runId, "--data-dir", dataDir])).stdout);

  // 5. The same run id again: replayed from the log, no model is called.
  const plannerCalls = scriptedPlanner.callCount;
  const workerCalls = scriptedWorker.callCount;
  say(`\nrunWorkflow(…, { runId: "${runId}" }) again`);
  const second = await run();
  say(`→ same output: ${canonicalJson(second.output) === canonicalJson(first.output)}, same version: ${second.workflowVersionId === first.workflowVersionId}`);
  if (!online) say(`→ model calls on the second run: planner ${scriptedPlanner.callCount - plannerCalls}, worker ${scriptedWorker.callCount - workerCalls}`);
  say(`\nMore: node packages/cli/dist/bin.js runs --data-dir ${dataDir}   (after pnpm build)`);
} catch (error) {
  failed = true;
  process.stderr.write(`quickstart failed: ${error instanceof Error ? error.message : String(error)}\n`);
}
process.exitCode = failed ? 1 : 0;
