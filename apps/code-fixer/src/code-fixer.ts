// The code-fixer demo: runs workflow.lwir.json, whose one code.run step reads `line.pricing.amount`
// where the input has `line.price`. The step fails in the sandbox; its onFailure.fixer session
// (role fixer) gets the source, the error and the output schema, tries a repaired source with
// try_fix in the same sandbox, and the step completes with the fixer's output. The fixed source is
// then read back from the run's events (it lives there, never in the LWIR).
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCliCapturingOutput } from "@little-stack/cli";
import { scriptedOrProviderModels } from "@little-stack/testing";

// In-process `little`; its stderr (a run's progress) is shown as it is written.
const captureLittle = (argv: readonly string[]) => runCliCapturingOutput(argv, { echoStderrTo: process.stderr });

const appDir = fileURLToPath(new URL("../", import.meta.url));
const workflowFile = join(appDir, "workflow.lwir.json");
const dataDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "little-code-fixer-"));
mkdirSync(dataDir, { recursive: true });
const modelsFile = join(dataDir, "models.json");
const runId = `run_codefixer${Date.now().toString(16)}`;

const say = (text: string): void => void process.stdout.write(`${text}\n`);
const indent = (text: string): string => text.trimEnd().split("\n").map((line) => `    ${line}`).join("\n");

const lwir = JSON.parse(readFileSync(workflowFile, "utf8")) as { steps: { with: { entrypoint: string; files: Record<string, { content: string }> } }[] };
const step = lwir.steps[0]!;
const brokenSource = step.with.files[step.with.entrypoint]!.content;
// What the scripted fixer answers offline: the one-line repair a model would make.
const repairedSource = brokenSource.replace("line.pricing.amount", "line.price");

const models = await scriptedOrProviderModels({
  slots: ["fixer"],
  modelsFile,
  script: [
    { toolCalls: [{ toolName: "try_fix", args: { files: { [step.with.entrypoint]: repairedSource } } }], usage: { inputTokens: 610, outputTokens: 96 } },
    { text: "The input lines carry a numeric `price`, not `pricing.amount`; fixed.", usage: { inputTokens: 700, outputTokens: 20 } },
  ],
});
let failed = false;
try {
  say(`Little Workflow code-fixer demo — fixer model: ${models.description}`);
  say(`data dir: ${dataDir}\n`);
  say(`The code.run step "total" (${step.with.entrypoint}):\n${indent(brokenSource)}\n`);

  say(`$ little run workflow.lwir.json --input input.json --models models.json --run-id ${runId}`);
  const run = await captureLittle(["run", workflowFile, "--input", join(appDir, "input.json"), "--models", modelsFile, "--run-id", runId, "--data-dir", dataDir]);
  const summary = JSON.parse(run.stdout) as { status: string; output?: unknown; error?: { message: string } };
  say(`status ${summary.status}, output ${JSON.stringify(summary.output ?? summary.error)}\n`);
  if (run.exitCode !== 0) throw new Error(`little run exited ${run.exitCode}`);

  const events = async (type: string): Promise<{ type: string; payload: Record<string, unknown> }[]> => {
    const listed = await captureLittle(["events", runId, "--type", type, "--data-dir", dataDir]);
    return listed.stdout.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
  };
  // The worker's session failed with the sandbox error; the fixer session started after it.
  const failure = (await events("harness.session.failed"))[0];
  const error = (failure?.payload["error"] ?? {}) as { code?: unknown; message?: unknown };
  say(`$ little events ${runId} --type harness.session.failed   (the step's error, handed to the fixer)`);
  say(`    ${String(error.code ?? "?")}: ${String(error.message ?? "none").split("\n")[0]}\n`);

  const tries = (await events("harness.tool_call.succeeded")).filter((event) => event.payload["toolName"] === "try_fix");
  say(`$ little events ${runId} --type harness.tool_call.succeeded   (the fixer's try_fix calls, run in the sandbox)`);
  for (const attempt of tries) say(`    try_fix → ${JSON.stringify(attempt.payload["result"])}`);

  const completed = (await events("StepCompleted"))[0]!;
  say(`\n$ little events ${runId} --type StepCompleted   (payload.fixedSource)`);
  say(indent(String(completed.payload["fixedSource"] ?? "(no fixedSource)")));
  say(`\nThe LWIR is unchanged: the fix lives in the run's events only.`);
} catch (error) {
  failed = true;
  process.stderr.write(`code-fixer failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await models.close();
}
process.exitCode = failed ? 1 : 0;
