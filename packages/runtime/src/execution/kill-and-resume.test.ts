import { localWorld } from "@little-stack/local-world";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoopbackOpenAIServer } from "@little-stack/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScenarioModelServer, subjectOf } from "../__fixtures__/kill-scenario.js";
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
    for (const key of bumpKeys) expect(lines.filter((line) => line.key === key)).toHaveLength(1);
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

  it.each(harnesses)(`%s harness: completes with the uninterrupted output after ${kills} random kills, never repeating a recorded tool or model call`, async (harness) => {
    const folder = mkdtempSync(join(tmpdir(), "runtime-kill-random-"));
    const referenceRequestsFrom = modelServer.requestCount;
    const reference = child([join(folder, "reference"), join(folder, "reference.log"), "run-reference", "3"], harness);
    const referenceRun = await reference.done;
    expect(referenceRun.code, referenceRun.stderr).toBe(0);
    const expected = JSON.parse(referenceRun.stdout) as unknown;
    const referenceLines = logLines(join(folder, "reference.log")).length;
    // Uninterrupted, each branch's ai.generate is exactly one request to the server.
    expect(modelServer.requests.slice(referenceRequestsFrom).map(subjectOf).sort()).toEqual(["blue", "green", "red"]);

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
    const summary: string[] = [];
    for (let scenario = 0; killed < kills; scenario += 1) {
      const dataDir = join(folder, `data-${scenario}`);
      const logFile = join(folder, `calls-${scenario}.log`);
      const runId = `run-kill-${scenario}`;
      /**
       * What was recorded when each process died: recorded tool call ids, model step paths, and how
       * many requests the model server had received by then.
       */
      const recordedAtKill: { pid: number; tools: Set<string>; models: Set<string>; requestsSoFar: number }[] = [];
      const requestsFrom = modelServer.requestCount;
      let output: unknown;
      for (let round = 0; output === undefined; round += 1) {
        runs += 1;
        const run = child([dataDir, logFile, runId, "3"], harness);
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
          const subject = /^fan\[([^\]]+)\]/.exec(stepPath)?.[1];
          expect(subject, `model step path ${stepPath}`).toBeDefined();
          expect(laterSubjects.includes(subject), `model call of ${stepPath} repeated after kill ${index}`).toBe(false);
        }
      }
      const subjects = modelServer.requests.slice(requestsFrom).map(subjectOf);
      expect(new Set(subjects)).toEqual(new Set(["red", "green", "blue"]));
      modelRequests += subjects.length;
      inFlightModelRequestsAgain += subjects.length - 3;
      const toolLines = lines.filter((line) => line.kind === "tool");
      inFlightReexecutions += toolLines.length - new Set(toolLines.map((line) => line.key)).size;
      summary.push(`${runId}: ${recordedAtKill.length} kills, ${events.length} events`);
    }
    console.log(
      `kill-and-resume (${harness} harness): ${killed} kills over ${runs} processes, ${completedRuns} completed runs, ${inFlightReexecutions} in-flight tool calls re-executed under their call id; ${modelRequests} model requests to the loopback server for ${completedRuns * 3} ai.generate steps (${inFlightModelRequestsAgain} in-flight requests sent again)`,
    );
    expect(killed).toBe(kills);
  }, 1_800_000);
});
