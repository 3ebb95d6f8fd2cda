// The `little run` demo: runs seed 001's support-ticket workflow (support-ticket.lwir.json) with the
// `little` CLI, then shows its events and cost report, then runs it again with the same run id to
// show that a finished run is never executed twice. Offline by default (a scripted model on a
// loopback server); a real model with OPENAI_API_KEY (and OPENAI_BASE_URL for compatible servers).
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "@little-stack/canonical";
import { runCliCapturingOutput } from "@little-stack/cli";
import { scriptedOrProviderModels } from "@little-stack/testing";

// In-process `little`; its stderr (a run's progress) is shown as it is written.
const captureLittle = (argv: readonly string[]) => runCliCapturingOutput(argv, { echoStderrTo: process.stderr });

const appDir = fileURLToPath(new URL("../", import.meta.url));
const workflowFile = join(appDir, "support-ticket.lwir.json");
const ticketFile = join(appDir, "ticket.json");
const dataDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "little-quickstart-"));
mkdirSync(dataDir, { recursive: true });
const modelsFile = join(dataDir, "models.json");
const runId = `run_quickstart${Date.now().toString(16)}`;

const say = (text: string): void => void process.stdout.write(`${text}\n`);
const show = (command: string): void => say(`\n$ ${command}`);

const models = await scriptedOrProviderModels({
  slots: ["gpt-4o-mini"],
  modelsFile: join(dataDir, "models.json"),
  script: [{ text: JSON.stringify({ summary: "The Android app 4.2.0 crashes at login for the whole team, blocking invoice approvals.", severity: "high" }), usage: { inputTokens: 182, outputTokens: 31, cachedInputTokens: 128 } }],
});
let failed = false;
try {
  say(`Little Workflow quickstart — model: ${models.description}`);
  say(`data dir: ${dataDir}`);

  show(`little run support-ticket.lwir.json --input ticket.json --models models.json --run-id ${runId}`);
  const run = await captureLittle(["run", workflowFile, "--input", ticketFile, "--models", modelsFile, "--run-id", runId, "--data-dir", dataDir]);
  process.stdout.write(run.stdout);
  if (run.exitCode !== 0) throw new Error(`little run exited ${run.exitCode}`);

  show(`little events ${runId} --type 'Step*'`);
  const events = await captureLittle(["events", runId, "--type", "Step*", "--data-dir", dataDir]);
  for (const line of events.stdout.trimEnd().split("\n")) {
    const event = JSON.parse(line) as { sequence: number; type: string; payload: { stepPath?: string } };
    say(`#${event.sequence} ${event.type} ${event.payload.stepPath ?? ""}`);
  }

  show(`little report ${runId}`);
  process.stdout.write((await captureLittle(["report", runId, "--data-dir", dataDir])).stdout);

  const requestsBefore = models.server?.requestCount;
  show(`little run support-ticket.lwir.json --input ticket.json --models models.json --run-id ${runId}   # again`);
  const again = await captureLittle(["run", workflowFile, "--input", ticketFile, "--models", modelsFile, "--run-id", runId, "--data-dir", dataDir]);
  const summary = JSON.parse(again.stdout) as { status: string; output: unknown };
  say(`status ${summary.status}, same output: ${canonicalJson(summary.output) === canonicalJson((JSON.parse(run.stdout) as { output: unknown }).output)}`);
  if (models.server !== undefined) say(`model requests: ${requestsBefore} before, ${models.server.requestCount - requestsBefore!} new on the second run`);

  say(`\nInspect it yourself: node packages/cli/dist/bin.js runs --data-dir ${dataDir}`);
} catch (error) {
  failed = true;
  process.stderr.write(`quickstart failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await models.close();
}
process.exitCode = failed ? 1 : 0;
