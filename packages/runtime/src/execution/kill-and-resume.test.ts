import { localWorld } from "@little-stack/local-world";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoopbackOpenAIServer } from "@little-stack/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killScenarios, startScenarioModelServer, subjectOf, type KillScenarioName } from "../__fixtures__/kill-scenario.js";
import { spawnKillChild } from "../__fixtures__/spawn-kill-child.js";
import type { EventRecord } from "../events/runtime-event-types.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readEvents(dataDir: string, runId: string): Promise<EventRecord[]> {
  const world = localWorld({ dataDir });
  try {
    return await world.listEvents(runId);
  } finally {
    await world.close();
  }
}

function logLines(file: string): { kind: string; key: string; pid: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [kind, key, pid] = line.split(" ");
      return { kind: kind!, key: key!, pid: Number(pid) };
    });
}

function payloadOf<T>(event: EventRecord): T {
  return event.payload as T;
}

// The scenario's ai.generate steps call this real HTTP server (OpenAI chat completions on
// 127.0.0.1) through the openai-compatible provider; its request log is the count of model calls.
let modelServer: LoopbackOpenAIServer;
beforeAll(async () => {
  modelServer = await startScenarioModelServer(3);
});
afterAll(async () => {
  await modelServer.close();
});
const child = (args: readonly string[], harness?: "fake" | "default") => spawnKillChild(args, { modelURL: modelServer.baseURL, ...(harness === undefined ? {} : { harness }) });

describe("kill-mid-loop replay (real child process, SIGKILL)", () => {
  it("a process killed during bump.visit[2] resumes, completes visit[2] on the same attempt, then proceeds to visit[3]", async () => {
    const folder = mkdtempSync(join(tmpdir(), "runtime-kill-loop-"));
    const dataDir = join(folder, "data");
    const logFile = join(folder, "calls.log");
    const marker = join(folder, "in-visit-2");
    const first = child([dataDir, logFile, "run-loop-kill", "1", "2", marker], "default");
    while (!existsSync(marker)) await sleep(20);
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");
    // The kill landed while bump.visit[2]'s tool ran: check.visit[1] had routed back to bump, and
    // nothing of visit[2] is committed (its announcements ride with its first result boundary).
    const before = await readEvents(dataDir, "run-loop-kill");
    const completedBefore = before.filter((event) => event.type === "StepCompleted").map((event) => payloadOf<{ stepPath: string; output?: unknown }>(event));
    expect(completedBefore.at(-1)).toMatchObject({ stepPath: "check.visit[1]", output: { chosen: "bump" } });
    expect(completedBefore.some((payload) => payload.stepPath === "bump.visit[2]")).toBe(false);
    expect(before.at(-1)!.type).not.toBe("RunCompleted");

    const second = child([dataDir, logFile, "run-loop-kill", "1"], "default");
    const finished = await second.done;
    expect(finished.code, finished.stderr).toBe(0);
    const output = JSON.parse(finished.stdout) as { value: { loops: number } };
    expect(output.value.loops).toBe(4);
    const events = await readEvents(dataDir, "run-loop-kill");
    const attempts = events.filter((event) => event.type === "StepAttemptStarted" && payloadOf<{ stepPath: string }>(event).stepPath === "bump.visit[2]");
    expect(attempts.map((event) => payloadOf<{ attempt: number }>(event).attempt)).toEqual([1]);
    const completed = events.filter((event) => event.type === "StepCompleted").map((event) => payloadOf<{ stepPath: string }>(event).stepPath);
    const loopPaths = completed.filter((path) => path.startsWith("bump") || path.startsWith("check"));
    expect(loopPaths).toEqual(["bump.visit[0]", "check.visit[0]", "bump.visit[1]", "check.visit[1]", "bump.visit[2]", "check.visit[2]", "bump.visit[3]", "check.visit[3]"]);
    // Visits 0 and 1 were not re-executed: one tool execution per bump visit, all of them.
    const lines = logLines(logFile);
    const bumpKeys = events
      .filter((event) => event.type === "harness.tool_call.succeeded" && payloadOf<{ toolName: string }>(event).toolName === "bump")
      .map((event) => payloadOf<{ callId: string }>(event).callId);
    for (const key of bumpKeys) expect(lines.filter((line) => line.kind === "tool" && line.key === key)).toHaveLength(1);
    expect(events.at(-1)!.type).toBe("RunCompleted");
  }, 60_000);
});

describe("one writer per run (real child process)", () => {
  it("refuses a second process while the first holds the run, and lets it resume once the holder is dead", async () => {
    const folder = mkdtempSync(join(tmpdir(), "runtime-second-writer-"));
    const dataDir = join(folder, "data");
    const logFile = join(folder, "calls.log");
    const marker = join(folder, "in-visit-1");
    const holder = child([dataDir, logFile, "run-two-writers", "1", "1", marker]);
    while (!existsSync(marker)) await sleep(20);
    const second = child([dataDir, logFile, "run-two-writers", "1"]);
    const refused = await second.done;
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("world.run_locked");
    holder.child.kill("SIGKILL");
    await holder.done;
    const third = child([dataDir, logFile, "run-two-writers", "1"]);
    const finished = await third.done;
    expect(finished.code, finished.stderr).toBe(0);
    const events = await readEvents(dataDir, "run-two-writers");
    expect(events.at(-1)!.type).toBe("RunCompleted");
  }, 60_000);
});

describe("kill-and-resume at random points (real child processes, SIGKILL)", () => {
  const kills = Number(process.env.RUNTIME_KILL_COUNT ?? 6);
  const harnesses = (process.env.RUNTIME_KILL_HARNESS ?? "default,fake").split(",") as ("default" | "fake")[];
  const scenarioNames = (process.env.RUNTIME_KILL_SCENARIOS ?? "loop,side-by-side").split(",") as KillScenarioName[];
  const cases = scenarioNames.flatMap((scenarioName) => harnesses.map((harness) => [scenarioName, harness] as const));

  it.each(cases)(`%s scenario, %s harness: completes with the uninterrupted output after ${kills} random kills, never repeating a recorded tool or model call`, async (scenarioName, harness) => {
    const scenario = killScenarios[scenarioName];
    const child = (args: readonly string[]) => spawnKillChild(args, { modelURL: modelServer.baseURL, harness, scenario: scenarioName });
    const folder = mkdtempSync(join(tmpdir(), "runtime-kill-random-"));
    const referenceRequestsFrom = modelServer.requestCount;
    const delay = String(scenario.delayMs);
    const reference = child([join(folder, "reference"), join(folder, "reference.log"), "run-reference", delay]);
    const referenceRun = await reference.done;
    expect(referenceRun.code, referenceRun.stderr).toBe(0);
    const expected = JSON.parse(referenceRun.stdout) as unknown;
    const referenceLines = logLines(join(folder, "reference.log")).length;
    // Uninterrupted, each ai.generate step is exactly one request to the server.
    expect(modelServer.requests.slice(referenceRequestsFrom).map(subjectOf).sort()).toEqual([...scenario.subjects].sort());

    let seed = 12_345;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let killed = 0;
    let runs = 0;
    let completedRuns = 0;
    let inFlightReexecutions = 0;
    let modelRequests = 0;
    let inFlightModelRequestsAgain = 0;
    /** Kills that landed while two or more tool calls of the killed process were running. */
    let killsWithCallsInFlight = 0;
    let mostCallsInFlight = 0;
    for (let scenarioIndex = 0; killed < kills; scenarioIndex += 1) {
      const dataDir = join(folder, `data-${scenarioIndex}`);
      const logFile = join(folder, `calls-${scenarioIndex}.log`);
      const runId = `run-kill-${scenarioIndex}`;
      /**
       * What was recorded when each process died: recorded tool call ids, model step paths, and how
       * many requests the model server had received by then.
       */
      const recordedAtKill: { pid: number; tools: Set<string>; models: Set<string>; requestsSoFar: number }[] = [];
      const requestsFrom = modelServer.requestCount;
      let output: unknown;
      for (let round = 0; output === undefined; round += 1) {
        runs += 1;
        const run = child([dataDir, logFile, runId, delay]);
        const pid = run.child.pid!;
        const tryKill = killed < kills && round < 4;
        if (tryKill) {
          const base = logLines(logFile).length;
          const target = base + Math.floor(random() * (Math.max(1, referenceLines - base) + 1));
          const extraMs = Math.floor(random() * 8);
          let exited = false;
          void run.done.then(() => (exited = true));
          while (!exited && logLines(logFile).length < target) await sleep(2);
          if (!exited) {
            await sleep(extraMs);
            run.child.kill("SIGKILL");
          }
        }
        const result = await run.done;
        if (result.signal === "SIGKILL") {
          killed += 1;
          const events = await readEvents(dataDir, runId);
          recordedAtKill.push({
            pid,
            tools: new Set(events.filter((event) => event.type === "harness.tool_call.succeeded").map((event) => payloadOf<{ callId: string }>(event).callId)),
            models: new Set(events.filter((event) => event.type === "harness.model.responded").map((event) => String(payloadOf<{ stepPath?: string }>(event).stepPath))),
            requestsSoFar: modelServer.requestCount,
          });
          const ownLines = logLines(logFile).filter((line) => line.pid === pid);
          const finished = new Set(ownLines.filter((line) => line.kind === "tool").map((line) => line.key));
          const inFlight = ownLines.filter((line) => line.kind === "begin" && !finished.has(line.key)).length;
          if (inFlight >= 2) killsWithCallsInFlight += 1;
          mostCallsInFlight = Math.max(mostCallsInFlight, inFlight);
          continue;
        }
        expect(result.code, result.stderr).toBe(0);
        output = JSON.parse(result.stdout) as unknown;
        completedRuns += 1;
      }
      expect(output).toEqual(expected);
      const events = await readEvents(dataDir, runId);
      const completedPaths = events.filter((event) => event.type === "StepCompleted").map((event) => payloadOf<{ stepPath: string }>(event).stepPath);
      expect(new Set(completedPaths).size).toBe(completedPaths.length);
      // Every step that was in flight at a kill resumed on its attempt: no step needed a second one.
      const attempts = events.filter((event) => event.type === "StepAttemptStarted").map((event) => payloadOf<{ stepPath: string; attempt: number }>(event));
      for (const attempt of attempts) expect(attempt.attempt, `${attempt.stepPath} attempt`).toBe(1);
      const lines = logLines(logFile);
      const pids = [...recordedAtKill.map((entry) => entry.pid)];
      // Any execution by a later process of a call that an earlier process had already recorded is a repeat.
      for (const [index, atKill] of recordedAtKill.entries()) {
        const later = new Set(pids.slice(index + 1));
        const laterLines = lines.filter((line) => later.has(line.pid) || !pids.includes(line.pid));
        for (const line of laterLines) {
          if (line.kind === "tool") expect(atKill.tools.has(line.key), `tool call ${line.key} repeated after kill ${index}`).toBe(false);
        }
        // Every request the server received after this process died came from a later process.
        const laterSubjects = modelServer.requests.slice(atKill.requestsSoFar).map(subjectOf);
        for (const stepPath of atKill.models) {
          const subject = scenario.subjectOfStep(stepPath);
          expect(subject, `model step path ${stepPath}`).toBeDefined();
          expect(laterSubjects.includes(subject), `model call of ${stepPath} repeated after kill ${index}`).toBe(false);
        }
      }
      const subjects = modelServer.requests.slice(requestsFrom).map(subjectOf);
      expect(new Set(subjects)).toEqual(new Set(scenario.subjects));
      modelRequests += subjects.length;
      inFlightModelRequestsAgain += subjects.length - scenario.subjects.length;
      const toolLines = lines.filter((line) => line.kind === "tool");
      inFlightReexecutions += toolLines.length - new Set(toolLines.map((line) => line.key)).size;
    }
    console.log(
      `kill-and-resume (${scenarioName} scenario, ${harness} harness): ${killed} kills over ${runs} processes, ${completedRuns} completed runs, ${killsWithCallsInFlight} kills with 2 or more tool calls in flight (at most ${mostCallsInFlight}); ${inFlightReexecutions} in-flight tool calls re-executed under their call id; ${modelRequests} model requests to the loopback server for ${completedRuns * scenario.subjects.length} ai.generate steps (${inFlightModelRequestsAgain} in-flight requests sent again)`,
    );
    expect(killed).toBe(kills);
  }, 3_600_000);
});
