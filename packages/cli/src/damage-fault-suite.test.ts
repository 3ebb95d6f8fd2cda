import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { type EventEnvelope, localWorld } from "@little-stack/local-world";
import { afterAll, describe, expect, it } from "vitest";
import { faultWorkflow } from "./__fixtures__/fault-workflow.js";
import { runLittleInProcess } from "./__fixtures__/run-in-process.js";
import { tsxLoader } from "./__fixtures__/run-little.js";

// Issue 14's acceptance: random damage of a run's history — byte flips, truncations and deletions
// of events.db, events.db-wal, events.db-shm and artifact files — after a real `little run` was
// SIGKILLed at a random point (or completed). Every trial must end in a completed run whose tools
// never ran again for a call the log had acknowledged, or in a clear refusal (one `little:` line
// with a world/runtime integrity code). Zero silent acceptances (a completed run whose output or
// recorded history differs from what was committed), zero re-executions.
//
//   CI: 16 trials.  LITTLE_DAMAGE_TRIALS=200 npx vitest run --project cli src/damage-fault-suite.test.ts
//   LITTLE_DAMAGE_SEED=<n> replays a sequence; LITTLE_DAMAGE_REPORT=<file> writes the figures as JSON.

const trials = Number(process.env["LITTLE_DAMAGE_TRIALS"] ?? 16);
const seed = Number(process.env["LITTLE_DAMAGE_SEED"] ?? 14_014);
const baseStateCount = Math.min(trials, 12 + Math.floor(trials / 10));
const runId = "run_damage";
const faultTools = fileURLToPath(new URL("./__fixtures__/fault-tools.ts", import.meta.url));
const binSource = fileURLToPath(new URL("./bin.ts", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "little-damage-"));
afterAll(() => {
  delete process.env["LITTLE_TEST_TOOL_LOG"];
  rmSync(root, { recursive: true, force: true });
});

/** The clear refusals: integrity errors of the world and the runtime. */
const refusalCodes = ["world.event_log_corrupt", "world.event_log_gap", "world.artifact_integrity", "world.artifact_not_found", "world.invalid_data_dir", "runtime.run_log_corrupt"];

function prng(start: number): (bound: number) => number {
  let state = start >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (((value ^ (value >>> 14)) >>> 0) / 4294967296) * bound;
  };
}
const random = prng(seed);
const integer = (bound: number): number => Math.floor(random(bound));

const toolLog = (dir: string): string => join(dir, "tools.log");
const loggedCalls = (dir: string): string[] =>
  existsSync(toolLog(dir)) ? readFileSync(toolLog(dir), "utf8").split("\n").filter((line) => line !== "").map((line) => line.split(" ")[0]!) : [];

/** `little run` in a child process, SIGKILLed once `killAfter` tool executions began (plus a random delay), or left to finish. */
async function baseState(index: number, killAfter: number | undefined): Promise<string> {
  const dir = join(root, `base-${index}`);
  cpSync(join(root, "workflow"), dir, { recursive: true });
  writeFileSync(toolLog(dir), "");
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, "run", "fault.lwir.json", "--input", "input.json", "--tools", faultTools, "--data-dir", "data", "--run-id", runId], {
    cwd: dir,
    env: { ...process.env, LITTLE_TEST_TOOL_LOG: toolLog(dir), LITTLE_DEBUG: "" },
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  if (killAfter !== undefined) {
    let done = false;
    void exited.then(() => (done = true));
    while (!done && loggedCalls(dir).length < killAfter) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, integer(40)));
    child.kill("SIGKILL");
  }
  await exited;
  return dir;
}

type Recorded = { readonly events: readonly EventEnvelope[]; readonly acknowledgedCalls: ReadonlySet<string> };

async function recorded(dataDir: string): Promise<Recorded> {
  if (!existsSync(join(dataDir, "events", "events.db"))) return { events: [], acknowledgedCalls: new Set() };
  const world = localWorld({ dataDir, readOnly: true });
  try {
    const events = await world.listEvents(runId);
    const acknowledgedCalls = new Set(
      events.filter((event) => event.type === "harness.tool_call.succeeded").map((event) => (event.payload as { callId: string }).callId),
    );
    return { events, acknowledgedCalls };
  } finally {
    await world.close();
  }
}

type Damage = { readonly target: string; readonly kind: "flip" | "truncate" | "delete"; readonly detail: string };

/** Damages one of the run's storage files (events.db, -wal, -shm, an artifact manifest or blob). */
function damage(dataDir: string): Damage {
  const candidates = [
    ...["events.db", "events.db-wal", "events.db-shm"].map((name) => join(dataDir, "events", name)),
    ...(existsSync(join(dataDir, "artifacts")) ? readdirSync(join(dataDir, "artifacts")).filter((name) => name.endsWith(".json")).map((name) => join(dataDir, "artifacts", name)) : []),
    ...(existsSync(join(dataDir, "artifacts", "blobs")) ? readdirSync(join(dataDir, "artifacts", "blobs")).map((name) => join(dataDir, "artifacts", "blobs", name)) : []),
  ].filter((path) => existsSync(path) && statSync(path).isFile());
  const path = candidates[integer(candidates.length)]!;
  const target = path.slice(dataDir.length + 1);
  const size = statSync(path).size;
  const kind = (["flip", "truncate", "delete"] as const)[integer(3)]!;
  if (kind === "delete" || size === 0) {
    unlinkSync(path);
    return { target, kind: "delete", detail: `${size} bytes` };
  }
  if (kind === "truncate") {
    const length = integer(size);
    truncateSync(path, length);
    return { target, kind, detail: `${size} → ${length} bytes` };
  }
  const bytes = readFileSync(path);
  const count = 1 + integer(16);
  const start = integer(size);
  // Either scattered single bytes or one run of bytes (a torn sector).
  const scattered = integer(2) === 0;
  for (let index = 0; index < count; index += 1) {
    const at = scattered ? integer(size) : (start + index) % size;
    bytes[at] = bytes[at]! ^ (1 + integer(255));
  }
  writeFileSync(path, bytes);
  return { target, kind, detail: `${count} byte(s) ${scattered ? "scattered" : `from offset ${start}`} of ${size}` };
}

type Outcome = "completed" | "refused" | "silent_acceptance" | "re_execution" | "unclean";

describe(`damage fault suite (${trials} trials, seed ${seed})`, () => {
  it(
    "every damaged history ends in a completed run that re-ran no acknowledged call, or a clear refusal",
    async () => {
      const workflowDir = join(root, "workflow");
      mkdirSync(workflowDir);
      writeFileSync(join(workflowDir, "fault.lwir.json"), JSON.stringify(faultWorkflow()));
      writeFileSync(join(workflowDir, "input.json"), JSON.stringify({ id: "x" }));

      // The reference: an undamaged run to completion.
      const reference = await baseState(0, undefined);
      const referenceSummary = JSON.parse(
        (await runLittleInProcess(["run", "fault.lwir.json", "--input", "input.json", "--tools", faultTools, "--data-dir", "data", "--run-id", runId], { cwd: reference })).stdout,
      ) as { status: string; output: unknown };
      expect(referenceSummary.status).toBe("completed");
      const bases: string[] = [reference];
      for (let index = 1; index < baseStateCount; index += 1) {
        // Mostly killed mid-run (the commits then live in the WAL), sometimes run to completion.
        bases.push(await baseState(index, index % 6 === 5 ? undefined : 1 + integer(6)));
      }

      const outcomes: Record<Outcome, number> = { completed: 0, refused: 0, silent_acceptance: 0, re_execution: 0, unclean: 0 };
      // Calls that were running (not yet recorded) when the first process was killed and ran again
      // on resume, under the same call id: what the durability contract allows, counted to show it.
      let inFlightCallsRerun = 0;
      const refusalsByCode: Record<string, number> = {};
      const byTarget: Record<string, Record<string, number>> = {};
      const problems: string[] = [];
      for (let trial = 0; trial < trials; trial += 1) {
        const base = bases[trial % bases.length]!;
        const dir = join(root, `trial-${trial}`);
        cpSync(base, dir, { recursive: true });
        const dataDir = join(dir, "data");
        const before = await recorded(dataDir);
        const callsBefore = loggedCalls(dir).length;
        const damaged = damage(dataDir);
        process.env["LITTLE_TEST_TOOL_LOG"] = toolLog(dir);
        const result = await runLittleInProcess(["run", "fault.lwir.json", "--input", "input.json", "--tools", faultTools, "--data-dir", "data", "--run-id", runId], { cwd: dir });
        const resumedCalls = loggedCalls(dir).slice(callsBefore);
        const executedAgain = resumedCalls.filter((callId) => before.acknowledgedCalls.has(callId));
        const startedBefore = new Set(loggedCalls(dir).slice(0, callsBefore));
        inFlightCallsRerun += resumedCalls.filter((callId) => startedBefore.has(callId) && !before.acknowledgedCalls.has(callId)).length;
        const describeTrial = `trial ${trial} (base ${trial % bases.length}, ${before.events.length} events, ${before.acknowledgedCalls.size} acknowledged calls; ${damaged.kind} ${damaged.target}: ${damaged.detail})`;
        let outcome: Outcome;
        if (executedAgain.length > 0) {
          outcome = "re_execution";
          problems.push(`${describeTrial}: acknowledged calls ran again: ${executedAgain.join(", ")}`);
        } else if (result.exitCode === 0) {
          const summary = JSON.parse(result.stdout) as { status: string; output: unknown };
          const after = await recorded(dataDir).catch((error: unknown) => error);
          const sameHistory =
            !(after instanceof Error) &&
            before.events.every((event, index) => {
              const now = (after as Recorded).events[index];
              return now !== undefined && now.eventId === event.eventId && now.type === event.type && now.recordedAt === event.recordedAt && isDeepStrictEqual(now.payload, event.payload);
            });
          if (summary.status === "completed" && isDeepStrictEqual(summary.output, referenceSummary.output) && sameHistory) outcome = "completed";
          else {
            outcome = "silent_acceptance";
            const changed = after instanceof Error ? `reading it back failed: ${after.message.slice(0, 200)}` : "the recorded history changed";
            problems.push(`${describeTrial}: accepted (${summary.status}), but ${sameHistory ? `the output is ${JSON.stringify(summary.output)}` : changed}`);
          }
        } else {
          const lines = result.stderr.split("\n").filter((line) => line.startsWith("little: "));
          const code = /^little: ([a-z_]+\.[a-z_]+): /.exec(lines[0] ?? "")?.[1];
          if (lines.length === 1 && result.stdout === "" && code !== undefined && refusalCodes.includes(code)) {
            outcome = "refused";
            refusalsByCode[code] = (refusalsByCode[code] ?? 0) + 1;
          } else {
            outcome = "unclean";
            problems.push(`${describeTrial}: exit ${String(result.exitCode)}, stderr ${JSON.stringify(result.stderr.slice(-400))}, stdout ${JSON.stringify(result.stdout.slice(0, 200))}`);
          }
        }
        outcomes[outcome] += 1;
        const key = `${damaged.target.replace(/art_[0-9a-f]{16}/, "art_…")} ${damaged.kind}`;
        byTarget[key] = { ...byTarget[key], [outcome]: (byTarget[key]?.[outcome] ?? 0) + 1 };
        rmSync(dir, { recursive: true, force: true });
      }
      const report = { trials, seed, baseStates: bases.length, outcomes, inFlightCallsRerun, refusalsByCode, byTarget, problems };
      console.log(`damage fault suite: ${JSON.stringify({ trials, seed, baseStates: bases.length, outcomes, inFlightCallsRerun, refusalsByCode })}`);
      for (const [key, counts] of Object.entries(byTarget).sort()) console.log(`  ${key.padEnd(34)} ${JSON.stringify(counts)}`);
      if (process.env["LITTLE_DAMAGE_REPORT"]) writeFileSync(process.env["LITTLE_DAMAGE_REPORT"], `${JSON.stringify(report, null, 2)}\n`);
      expect(problems).toEqual([]);
      expect(outcomes.completed + outcomes.refused).toBe(trials);
    },
    Math.max(120_000, trials * 20_000),
  );
});
