// The kill-resume demo: starts a run (a decision loop, then four parallel branches with a tool
// call and a model call each, then a final tool call) in a child process, kills it with SIGKILL
// while the parallel branches are in flight, resumes it with the same run id, and prints what the
// resume skipped, what it ran again, and what it ran for the first time.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCliCapturingOutput } from "@little-stack/cli";
import { scriptedOrProviderModels } from "@little-stack/testing";
import { startLittle } from "./little-process.js";

// In-process `little`; its stderr (a run's progress) is shown as it is written.
const captureLittle = (argv: readonly string[]) => runCliCapturingOutput(argv, { echoStderrTo: process.stderr });

const appDir = fileURLToPath(new URL("../", import.meta.url));
const dataDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "little-kill-resume-"));
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, "tool-calls.log");
const modelsFile = join(dataDir, "models.json");
const runId = `run_killresume${Date.now().toString(16)}`;
writeFileSync(logFile, "");

const say = (text: string): void => void process.stdout.write(`${text}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const shorten = (text: string): string => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

type LoggedCall = { readonly toolName: string; readonly callId: string; readonly pid: number; readonly value: string };
const loggedCalls = (): LoggedCall[] =>
  readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [toolName, callId, pid, ...value] = line.split(" ");
      return { toolName: toolName!, callId: callId!, pid: Number(pid), value: value.join(" ") };
    });

const models = await scriptedOrProviderModels({
  slots: ["writer"],
  modelsFile,
  script: Array.from({ length: 8 }, (_, index) => ({ text: `A vivid color (answer ${index + 1}).`, usage: { inputTokens: 40, outputTokens: 8 } })),
});
const args = ["run", join(appDir, "workflow.lwir.json"), "--input", join(appDir, "input.json"), "--models", modelsFile, "--tools", join(appDir, "src/demo-tools.ts"), "--run-id", runId, "--data-dir", dataDir];
const env = { KILL_RESUME_LOG: logFile, KILL_RESUME_DELAY_MS: process.env["KILL_RESUME_DELAY_MS"] ?? "300" };

let failed = false;
try {
  say(`Little Workflow kill-resume demo — model: ${models.description}`);
  say(`data dir: ${dataDir}\n`);
  say(`1. little run workflow.lwir.json … --run-id ${runId}   (child process)`);
  const first = startLittle(args, env);
  // Kill once the first parallel branch's tool call has run: the loop is done, branches are in flight.
  while (!loggedCalls().some((call) => call.toolName === "record:paint")) {
    if (first.child.exitCode !== null) throw new Error(`the first run ended before it could be killed: ${(await first.exited).stderr}`);
    await sleep(20);
  }
  first.child.kill("SIGKILL");
  const killed = await first.exited;
  const beforeKill = loggedCalls();
  const requestsBeforeKill = models.server?.requestCount;
  say(`2. SIGKILL pid ${first.child.pid} (${killed.signal}) after ${beforeKill.length} tool calls${requestsBeforeKill === undefined ? "" : ` and ${requestsBeforeKill} model requests`}`);

  const replay = await captureLittle(["replay", runId, "--data-dir", dataDir]);
  const state = JSON.parse(replay.stdout) as { status: string; eventCount: number; steps: Record<string, { status: string }> };
  const completedAtKill = Object.entries(state.steps).filter(([, step]) => step.status === "completed").map(([path]) => path);
  const inFlightAtKill = Object.entries(state.steps).filter(([, step]) => step.status !== "completed").map(([path]) => path);
  say(`   the log says: ${state.status}, ${state.eventCount} events; completed: ${completedAtKill.join(", ")}`);
  say(`   started, not completed: ${inFlightAtKill.length === 0 ? "none" : inFlightAtKill.join(", ")}`);
  const runs = JSON.parse((await captureLittle(["runs", "--json", "--data-dir", dataDir])).stdout) as { runId: string; status: string; stepsCompleted: number; stepsScheduled: number }[];
  const listed = runs.find((listing) => listing.runId === runId);
  say(`   little runs: ${listed?.status ?? "?"}, ${listed?.stepsCompleted ?? 0}/${listed?.stepsScheduled ?? 0} steps done\n`);

  say(`3. little run workflow.lwir.json … --run-id ${runId}   (same id: resume)`);
  const second = startLittle(args, env);
  const resumed = await second.exited;
  if (resumed.exitCode !== 0) throw new Error(`the resumed run exited ${resumed.exitCode}: ${resumed.stderr.trim().split("\n").at(-1)}`);
  const summary = JSON.parse(resumed.stdout) as { status: string; output: { label: string; value: { loops: number; colors: { itemKey: string; output: string }[] } } };
  say(`   ${summary.status}: ${summary.output.value.loops} loop visits, colors ${summary.output.value.colors.map((color) => color.itemKey).join(", ")}\n`);

  const afterResume = loggedCalls().filter((call) => call.pid === second.child.pid);
  const firstPidCalls = new Map(beforeKill.map((call) => [call.callId, call]));
  const reExecuted = afterResume.filter((call) => firstPidCalls.has(call.callId));
  const fresh = afterResume.filter((call) => !firstPidCalls.has(call.callId));
  say("4. What the resume did");
  say(`   skipped (completed before the kill, reused from the log): ${completedAtKill.length} step visits — ${completedAtKill.join(", ")}`);
  say(`   resumed on the same attempt (their recorded tool and model calls replayed, not re-run): ${inFlightAtKill.join(", ")}`);
  say(`   tool calls that completed before the kill and never ran again: ${beforeKill.length}`);
  say(`   re-executed (finished in the killed process but its result was not recorded yet): ${reExecuted.length === 0 ? "none" : reExecuted.map((call) => `${call.toolName} ${call.callId}`).join(", ")}`);
  say(`   executed for the first time after the resume: ${fresh.length} tool calls — ${fresh.map((call) => `${call.toolName}(${shorten(call.value)})`).join(", ")}`);
  if (models.server !== undefined) say(`   model requests: ${requestsBeforeKill} before the kill, ${models.server.requestCount - requestsBeforeKill!} after (one per branch whose answer was not recorded)`);
  const repeated = loggedCalls().length - new Set(loggedCalls().map((call) => call.callId)).size;
  say(`   tool calls that ran twice: ${repeated}`);
  say(`\nInspect it: node packages/cli/dist/bin.js events ${runId} --data-dir ${dataDir} --type 'harness.tool_call.*'`);
  if (!existsSync(join(dataDir, "events", "events.db"))) throw new Error("no event database was written");
} catch (error) {
  failed = true;
  process.stderr.write(`kill-resume failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await models.close();
}
process.exitCode = failed ? 1 : 0;
