import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { localWorld } from "@little-stack/local-world";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failingWorkflow, toolsWorkflow } from "./__fixtures__/cli-workflows.js";
import { runLittleInProcess } from "./__fixtures__/run-in-process.js";
import { repoRoot, runLittle, tsxLoader, type LittleResult } from "./__fixtures__/run-little.js";

// Smoke tests of run, events, replay, report and runs against a temporary data dir, with a real
// --tools module and the real sandbox. The first run, its resume and the lock test use the real
// executable in child processes; the other cases call runCli in-process (same entry point, and
// far cheaper than a process each on a loaded machine).

let workDir: string;
let toolLog: string;
const runId = "run_clismoke0001";
const toolsModule = fileURLToPath(new URL("./__fixtures__/lookup-tools.ts", import.meta.url));
const env = (): NodeJS.ProcessEnv => ({ LITTLE_TEST_TOOL_LOG: toolLog });
const littleProcess = (args: string[]): Promise<LittleResult> => runLittle(args, { cwd: workDir, env: env() });
const little = (args: string[]): Promise<LittleResult> => runLittleInProcess(args, { cwd: workDir });

function expectOneLineError(result: LittleResult, exitCode: number, pattern: RegExp): void {
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^little: [^\n]+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.exitCode).toBe(exitCode);
}

function checksums(dir: string): Record<string, string> {
  const sums: Record<string, string> = {};
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, file);
    if (statSync(path).isFile()) sums[file] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return sums;
}

const toolLogLines = (): string[] => readFileSync(toolLog, "utf8").trim().split("\n");

let firstRun: LittleResult;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "little-cli-run-"));
  toolLog = join(workDir, "tools.log");
  writeFileSync(toolLog, "");
  writeFileSync(join(workDir, "tools.lwir.json"), JSON.stringify(toolsWorkflow(), null, 2));
  writeFileSync(join(workDir, "failing.lwir.json"), JSON.stringify(failingWorkflow(), null, 2));
  writeFileSync(join(workDir, "support.lwir.json"), readFileSync(join(repoRoot, "apps/quickstart/support-ticket.lwir.json")));
  writeFileSync(join(workDir, "input.json"), JSON.stringify({ id: "x" }));
  writeFileSync(join(workDir, "ticket.json"), JSON.stringify({ ticketId: "T-1", transcript: "It crashes." }));
  writeFileSync(join(workDir, "models.json"), JSON.stringify({ other: { provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:9/v1" } }));
  process.env["LITTLE_TEST_TOOL_LOG"] = toolLog;
  firstRun = await littleProcess(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", runId]);
}, 120_000);

afterAll(() => {
  delete process.env["LITTLE_TEST_TOOL_LOG"];
  rmSync(workDir, { recursive: true, force: true });
});

describe("little run", () => {
  it("completes a run and prints the summary on stdout, one line per step boundary on stderr (piped)", () => {
    expect(firstRun.exitCode).toBe(0);
    const summary = JSON.parse(firstRun.stdout) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(["runId", "workflowVersionId", "status", "output", "usage", "eventCount"]);
    expect(summary).toMatchObject({ runId, status: "completed", output: { total: 7 } });
    expect(summary["workflowVersionId"]).toMatch(/^wfver_[0-9a-f]{16}$/);
    const lines = firstRun.stderr.trimEnd().split("\n");
    expect(lines).toEqual([`run ${runId} started`, expect.stringMatching(/^ {2}✓ fetch {2}\d+(ms|\.\ds)$/), expect.stringMatching(/^ {2}✓ score {2}\d+(ms|\.\ds)$/), "run completed"]);
    expect(toolLogLines()).toHaveLength(3);
  });

  it("resumes with the same --run-id without executing anything again", async () => {
    const again = await littleProcess(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", runId]);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(firstRun.stdout));
    expect(again.stderr).toBe(`resuming ${runId}: ${(JSON.parse(firstRun.stdout) as { eventCount: number }).eventCount} events recorded; completed steps reused: fetch, score\n`);
    expect(toolLogLines()).toHaveLength(3);
  }, 120_000);

  it("exits 1 with status failed and the error when the run fails", async () => {
    const result = await little(["run", "failing.lwir.json", "--input", "input.json"]);
    expect(result.exitCode).toBe(1);
    const summary = JSON.parse(result.stdout) as { status: string; error: { causeCode: string; failedStepPath: string; message: string } };
    expect(summary.status).toBe("failed");
    expect(summary.error).toMatchObject({ causeCode: "step_failed", failedStepPath: "explode" });
    expect(summary.error.message).toContain("boom");
    expect(result.stderr).toMatch(/\n {2}✗ explode {2}[^\n]*boom[^\n]*\nrun failed \(step_failed\): [^\n]+\n$/);
  });
});

describe("little run: user errors are one line, exit 1 or 2", () => {
  it("invalid LWIR: exit 1, the first finding and where to see them all", async () => {
    const result = await little(["run", join(repoRoot, "apps/quickstart/invalid.lwir.json"), "--input", "ticket.json"]);
    expectOneLineError(result, 1, /^little: cli\.invalid_workflow: .*invalid\.lwir\.json is not valid LWIR \(4 findings; first: \$\S* [a-z_.]+ .*\) — run "little validate /);
  });

  it("input that does not match input.schema: exit 2", async () => {
    writeFileSync(join(workDir, "bad-input.json"), JSON.stringify({ ticketId: 7 }));
    const result = await little(["run", "support.lwir.json", "--input", "bad-input.json"]);
    expectOneLineError(result, 2, /^little: bad-input\.json does not match the workflow's input\.schema: .*ticketId.* — fix the input file\n$/);
  });

  it("input that is not JSON, or missing: exit 2", async () => {
    writeFileSync(join(workDir, "broken-input.json"), "{ nope");
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "broken-input.json"]), 2, /broken-input\.json is not valid JSON/);
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "absent.json"]), 2, /cannot read absent\.json: no such file/);
    expectOneLineError(await little(["run", "support.lwir.json"]), 2, /--input/);
  });

  it("a model slot without --models, or missing from the --models file: exit 2", async () => {
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "ticket.json"]), 2, /uses model slot "gpt-4o-mini" but no --models file was given — pass --models/);
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "ticket.json", "--models", "models.json"]), 2, /^little: models\.json has no entry for model slot "gpt-4o-mini"/);
  });

  it("a malformed --models file: exit 2 naming the slot and field", async () => {
    writeFileSync(join(workDir, "bad-models.json"), JSON.stringify({ "gpt-4o-mini": { provider: "anthropic", model: "x" } }));
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "ticket.json", "--models", "bad-models.json"]), 2, /bad-models\.json: slot "gpt-4o-mini"\.provider is "anthropic"/);
    writeFileSync(join(workDir, "keyless.json"), JSON.stringify({ "gpt-4o-mini": { provider: "openai", model: "gpt-4o-mini", apiKeyEnv: "LITTLE_TEST_NO_SUCH_KEY" } }));
    expectOneLineError(await little(["run", "support.lwir.json", "--input", "ticket.json", "--models", "keyless.json"]), 2, /\$LITTLE_TEST_NO_SUCH_KEY, which is not set/);
  });

  it("a tools module that does not load, or does not exist: exit 2", async () => {
    const throwing = fileURLToPath(new URL("./__fixtures__/throwing-tools.ts", import.meta.url));
    expectOneLineError(await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", throwing]), 2, /^little: cannot load tools module .*throwing-tools\.ts: Error: the tools module could not connect to its database — fix the module/);
    expectOneLineError(await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", "nope.mjs"]), 2, /^little: cannot load tools module nope\.mjs: no such file/);
  });

  it("a tool the workflow uses and no module provides: exit 2", async () => {
    expectOneLineError(await little(["run", "tools.lwir.json", "--input", "input.json"]), 2, /uses tool "lookup" but no --tools module was given/);
  });

  it("a --data-dir that cannot be created: exit 2", async () => {
    writeFileSync(join(workDir, "a-file"), "not a folder");
    const result = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", "a-file"]);
    expectOneLineError(result, 2, /^little: The world's data dir is not writable at .*a-file/);
  });

  it("an invalid --run-id: exit 2", async () => {
    const result = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", "../escape"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^little: [^\n]*\n$/);
  });

  it("resuming a run id with another workflow or another input: exit 1, one line", async () => {
    const otherWorkflow = await little(["run", "failing.lwir.json", "--input", "input.json", "--run-id", runId]);
    expect(otherWorkflow.exitCode).toBe(1);
    expect(otherWorkflow.stdout).toBe("");
    expect(otherWorkflow.stderr).toMatch(/^little: runtime\.[a-z_]+: [^\n]*run_clismoke0001[^\n]*\n$/);
    writeFileSync(join(workDir, "other-input.json"), JSON.stringify({ id: "y" }));
    const otherInput = await little(["run", "tools.lwir.json", "--input", "other-input.json", "--tools", toolsModule, "--run-id", runId]);
    expect(otherInput.exitCode).toBe(1);
    expect(otherInput.stderr).toMatch(/^little: runtime\.[a-z_]+: [^\n]*\n$/);
    expect(toolLogLines()).toHaveLength(3);
  });

  it("a run locked by a live process: exit 1 naming the holder", async () => {
    const holder = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, fileURLToPath(new URL("./__fixtures__/hold-run-lock.ts", import.meta.url)), join(workDir, "locked-world"), "run_locked"], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const ready = await new Promise<string>((resolve) => createInterface({ input: holder.stdout! }).once("line", resolve));
      expect(ready).toBe("locked");
      const result = await littleProcess(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", "run_locked", "--data-dir", "locked-world"]);
      expectOneLineError(result, 1, new RegExp(`^little: world\\.run_locked: Run "run_locked" is locked by process ${holder.pid} `));
    } finally {
      holder.kill("SIGKILL");
    }
  }, 120_000);
});

describe("little events, replay, report, runs", () => {
  it("events prints every envelope as NDJSON in sequence order", async () => {
    const result = await little(["events", runId]);
    expect(result.exitCode).toBe(0);
    const events = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { sequence: number; runId: string });
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    expect(events.length).toBe((JSON.parse(firstRun.stdout) as { eventCount: number }).eventCount);
  });

  it("events --type 'harness.tool_call.*' --caller code lists exactly the code-initiated tool calls", async () => {
    const [filtered, all] = await Promise.all([little(["events", runId, "--type", "harness.tool_call.*", "--caller", "code"]), little(["events", runId])]);
    expect(filtered.exitCode).toBe(0);
    const picked = filtered.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { eventId: string; type: string; payload: { caller: string; callId: string } });
    const expected = all.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { eventId: string; type: string; payload: { caller?: string } })
      .filter((event) => event.type.startsWith("harness.tool_call.") && event.payload.caller === "code");
    // The harness records a tool.call step's call as caller code too (no model chose it), so: the
    // fetch step's call (logged once, by its result: runtime README, "A direct step's tool call is
    // logged once") and the code.run step's two calls, each started and succeeded.
    expect(picked.map((event) => event.type)).toEqual(["harness.tool_call.succeeded", ...Array.from({ length: 2 }, () => ["harness.tool_call.started", "harness.tool_call.succeeded"]).flat()]);
    expect(picked.map((event) => event.eventId)).toEqual(expected.map((event) => event.eventId));
    expect(new Set(picked.map((event) => event.payload.callId)).size).toBe(3);
    expect(expected.length).toBeGreaterThan(0);
    const byModel = await little(["events", runId, "--type", "harness.tool_call.*", "--caller", "model"]);
    expect(byModel).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    for (const event of picked) expect(event.payload.caller).toBe("code");
  });

  it("events --step selects everything a step's harness session recorded: session and tool calls", async () => {
    const result = await little(["events", runId, "--step", "fetch", "--type", "harness.*"]);
    const events = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; payload: { toolName?: string } });
    expect(events.map((event) => event.type)).toEqual(["harness.session.started", "harness.tool_call.succeeded", "harness.session.completed"]);
    expect(events.filter((event) => event.type.startsWith("harness.tool_call.")).map((event) => event.payload.toolName)).toEqual(["lookup"]);
    const score = await little(["events", runId, "--step", "score", "--type", "harness.session.*"]);
    expect(score.stdout.trimEnd().split("\n").map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(["harness.session.started", "harness.session.completed"]);
  });

  it("events --step and --type filter by step path and exact type", async () => {
    const result = await little(["events", runId, "--step", "fetch", "--type", "StepCompleted"]);
    const events = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; payload: { stepPath: string } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "StepCompleted", payload: { stepPath: "fetch" } });
  });

  it("replay prints the materialized state and changes nothing in the data dir", async () => {
    const dataDir = join(workDir, ".little-workflow");
    const before = checksums(dataDir);
    const result = await little(["replay", runId]);
    expect(result.exitCode).toBe(0);
    const state = JSON.parse(result.stdout) as { status: string; output: unknown; steps: Record<string, { status: string }> };
    expect(state).toMatchObject({ status: "completed", output: { total: 7 } });
    expect(Object.keys(state.steps)).toEqual(["fetch", "score"]);
    expect(checksums(dataDir)).toEqual(before);
    expect(Object.keys(before).length).toBeGreaterThan(0);
  });

  it("report prints a table per step with totals, `-` for steps without model calls", async () => {
    const result = await little(["report", runId]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`run ${runId} (completed)`);
    expect(lines[1]).toMatch(/^step\s+model\s+calls\s+tokens in\s+cached\s+out\s+\$$/);
    expect(lines.slice(3).map((line) => line.split(/\s+/)[0])).toEqual(["fetch", "score", "total"]);
    expect(lines.at(-1)).toMatch(/^total\s+0\s+0\s+0\s+0\s+-$/);
    const json = JSON.parse((await little(["report", runId, "--json"])).stdout) as { steps: { stepPath: string; costUsd: number | null }[]; totals: { modelCalls: number } };
    expect(json.steps.map((step) => step.stepPath)).toEqual(["fetch", "score"]);
    expect(json.totals.modelCalls).toBe(0);
  });

  it("runs lists each run with kind, status, steps done, start and duration", async () => {
    const result = await little(["runs"]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^run\s+kind\s+status\s+steps done\s+started\s+duration$/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${runId}\\s+run\\s+completed\\s+2/2\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+\\d+(ms|\\.\\ds)$`)));
    const listed = JSON.parse((await little(["runs", "--json"])).stdout) as { runId: string; status: string; stepsCompleted: number }[];
    expect(listed).toContainEqual(expect.objectContaining({ runId, kind: "run", status: "completed", stepsCompleted: 2 }));
  });

  it("runs tells an orchestrator's pipeline and plan runs from workflow runs, with their own statuses", async () => {
    // The logs an orchestrator leaves: its own session (the pipeline run), a compile that only locked
    // a version (plan_workflow), and a pipeline whose process died mid-session.
    const events = JSON.parse(`[${(await little(["events", runId, "--type", "WorkflowVersionRegistered"])).stdout.trimEnd().split("\n").join(",")}]`) as { payload: unknown }[];
    const registered = events[0];
    const world = localWorld({ dataDir: join(workDir, "kinds-world") });
    const session = (id: string) => ({ runId: id, sessionId: `hses_${id}`, role: "orchestrator", task: { kind: "orchestrate" }, manifest: {}, manifestHash: "sha256:0" });
    await world.appendEvents("pipeline-done", [
      { type: "harness.session.started", payload: session("pipeline-done") },
      { type: "harness.session.completed", payload: { runId: "pipeline-done", sessionId: "hses_pipeline-done", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 } } },
    ]);
    await world.appendEvents("run_plan00000001", [
      { type: "OrchestrationRequested", payload: { request: {} } },
      { type: "WorkflowVersionRegistered", payload: registered!.payload },
    ]);
    await world.appendEvents("pipeline-cut", { type: "harness.session.started", payload: session("pipeline-cut") });
    await world.close();
    const listed = JSON.parse((await little(["runs", "--json", "--data-dir", "kinds-world"])).stdout) as { runId: string; kind: string; status: string }[];
    // Oldest first; these were written within a millisecond or two, so compare them by id.
    expect(listed.map(({ runId: id, kind, status }) => [id, kind, status]).sort()).toEqual([
      ["pipeline-cut", "pipeline", "interrupted"],
      ["pipeline-done", "pipeline", "completed"],
      ["run_plan00000001", "plan", "planned"],
    ]);
    const table = (await little(["runs", "--data-dir", "kinds-world"])).stdout;
    expect(table).toMatch(/^run_plan00000001\s+plan\s+planned\s+-\s/m);
  });

  it("an unknown run id, a missing data dir and a bad --caller are one line, exit 2", async () => {
    const results = await Promise.all([
      little(["events", "run_nope"]),
      little(["replay", "run_nope"]),
      little(["report", "run_nope"]),
      little(["runs", "--data-dir", "no-such-world"]),
      little(["events", runId, "--caller", "robot"]),
    ]);
    for (const result of results.slice(0, 3)) expectOneLineError(result, 2, /^little: unknown run id "run_nope" in \.little-workflow — run "little runs"/);
    expectOneLineError(results[3]!, 2, /^little: no Little Workflow data in no-such-world/);
    expectOneLineError(results[4]!, 2, /--caller must be "model" or "code", not "robot"/);
  });

  it("every command explains itself with --help", async () => {
    const results = await Promise.all(["run", "events", "replay", "report", "runs"].map((command) => little([command, "--help"])));
    for (const [index, result] of results.entries()) {
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(`little ${["run", "events", "replay", "report", "runs"][index]}`);
      expect(result.stdout).toContain("--data-dir");
    }
  });
});

describe("little run --progress", () => {
  it("events: every event of the run as one JSON line on stderr, the stream `little events` prints; a resume prints the whole stream again", async () => {
    const run = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", "run_progressevents", "--progress", "events", "--data-dir", "progress-world"]);
    expect(run.exitCode).toBe(0);
    const streamed = run.stderr.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
    const stored = (await little(["events", "run_progressevents", "--data-dir", "progress-world"])).stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
    expect(streamed).toEqual(stored);
    expect(streamed).toHaveLength((JSON.parse(run.stdout) as { eventCount: number }).eventCount);
    const again = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", "run_progressevents", "--progress", "events", "--data-dir", "progress-world"]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual(stored);
  }, 120_000);

  it("none: nothing on stderr, the summary on stdout", async () => {
    const run = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--progress", "none", "--data-dir", "progress-world"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", output: { total: 7 } });
  }, 120_000);

  it("an unknown mode is a usage error naming the modes, before the world is touched", async () => {
    const result = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--progress", "loud", "--data-dir", "never-created"]);
    expectOneLineError(result, 2, /--progress "loud" is not a progress mode — use one of live, steps, events, none/);
    expect(readdirSync(workDir)).not.toContain("never-created");
  });
});
