import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashModelRequest, resolveModelCallRequests, type ModelRequest } from "@little-stack/harness";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from "../loopback-server/start-loopback-openai-server.js";
import type { ScriptedTurn } from "../scripted-model/scripted-turn.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("../__fixtures__/agent-session-child.ts", import.meta.url));

const script: ScriptedTurn[] = [
  { toolCalls: [{ toolName: "append_note", args: { note: "one" } }], usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0 } },
  {
    toolCalls: [
      { toolName: "append_note", args: { note: "two-a" } },
      { toolName: "append_note", args: { note: "two-b" } },
    ],
    usage: { inputTokens: 140, outputTokens: 20, cachedInputTokens: 96, reasoningTokens: 4 },
  },
  { toolCalls: [{ toolName: "append_note", args: { note: "three" } }], usage: { inputTokens: 200, outputTokens: 10, cachedInputTokens: 128 } },
  { text: "All four notes written.", usage: { inputTokens: 240, outputTokens: 6, cachedInputTokens: 192 } },
];

type Child = { process: ChildProcess; waitFor(pattern: RegExp): Promise<string>; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; output(): string };

function startChild(options: Record<string, unknown>): Child {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, JSON.stringify(options)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stdout);
      if (match !== null) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match[0]);
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    process: child,
    output: () => `stdout:\n${stdout}\nstderr:\n${stderr}`,
    exited,
    waitFor: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const match = pattern.exec(stdout);
        if (match !== null) return resolve(match[0]);
        waiters.push({ pattern, resolve });
        void exited.then(({ code, signal }) => reject(new Error(`child exited (${code ?? signal}) before printing ${pattern}\n${stdout}\n${stderr}`)));
      }),
  };
}

type LoggedEvent = { type: string; sequence: number; payload: Record<string, unknown> };

function readLog(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").filter((line) => line.length > 0);
}

function readEvents(file: string): LoggedEvent[] {
  return readLog(file).map((line) => JSON.parse(line) as LoggedEvent);
}

let server: LoopbackOpenAIServer | undefined;
let workDir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
});

describe.each(["generate", "stream"] as const)("a session killed with SIGKILL (%s)", (mode) => {
  it("resumes between turns in a new process with zero repeated model calls and zero repeated tool calls", async () => {
    server = await startLoopbackOpenAIServer({ script });
    workDir = mkdtempSync(join(tmpdir(), "harness-kill-"));
    const files = { eventsFile: join(workDir, "events.jsonl"), toolLogFile: join(workDir, "tools.log") };
    const base = { baseURL: server.baseURL, runId: "run_00000000000000aa", mode, ...files };

    const first = startChild({ ...base, stopAfterTurn: 2 });
    await first.waitFor(/COMMITTED 2\n/);
    first.process.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    expect(server.requestCount).toBe(2);
    expect(readLog(files.toolLogFile).map((line) => line.split(" ")[1]).sort()).toEqual(["one", "two-a", "two-b"]);

    const second = startChild(base);
    const exit = await second.exited;
    expect(exit.code, second.output()).toBe(0);
    expect(second.output()).toContain('DONE "All four notes written."');

    // Turns 1 and 2 came from the log: the server saw exactly one request per scripted turn.
    expect(server.requestCount).toBe(4);
    const toolLog = readLog(files.toolLogFile);
    expect(toolLog.map((line) => line.split(" ")[1]).sort()).toEqual(["one", "three", "two-a", "two-b"]);
    expect(new Set(toolLog.map((line) => line.split(" ")[0])).size).toBe(4);

    const events = readEvents(files.eventsFile);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_event, index) => index + 1));
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect([count("harness.session.started"), count("harness.model.called"), count("harness.model.responded")]).toEqual([1, 4, 4]);
    expect([count("harness.tool_call.started"), count("harness.tool_call.succeeded"), count("harness.session.completed")]).toEqual([4, 4, 1]);
    const completed = events.find((event) => event.type === "harness.session.completed")?.payload;
    expect(completed?.usage).toEqual({ inputTokens: 680, outputTokens: 46, cachedInputTokens: 416, reasoningTokens: 4 });
    // Turn 3, the new process's first call, records only what is new since turn 2 (written by the
    // killed process); rebuilt, each prompt hashes to the promptHash of the request that was sent.
    const called = events.filter((event) => event.type === "harness.model.called").map((event) => event.payload as { callId: string; promptPrefix?: { callId: string } });
    expect(called.map((payload) => payload.promptPrefix?.callId)).toEqual([undefined, called[0]?.callId, called[1]?.callId, called[2]?.callId]);
    const whole = resolveModelCallRequests(events).filter((event) => event.type === "harness.model.called");
    expect(whole.map((event) => hashModelRequest(event.payload["request"] as ModelRequest))).toEqual(whole.map((event) => event.payload["promptHash"]));
  });

  it("re-executes a tool call that was in flight when the process died, under the same call id", async () => {
    server = await startLoopbackOpenAIServer({ script });
    workDir = mkdtempSync(join(tmpdir(), "harness-kill-"));
    const files = { eventsFile: join(workDir, "events.jsonl"), toolLogFile: join(workDir, "tools.log") };
    const base = { baseURL: server.baseURL, runId: "run_00000000000000bb", mode, ...files };

    const first = startChild({ ...base, hangInToolNote: "three" });
    const inTool = await first.waitFor(/IN_TOOL \S+\n/);
    first.process.kill("SIGKILL");
    await first.exited;
    const inFlightId = inTool.trim().split(" ")[1];
    expect(server.requestCount).toBe(3);

    const second = startChild(base);
    expect((await second.exited).code, second.output()).toBe(0);
    expect(server.requestCount).toBe(4);
    const toolLog = readLog(files.toolLogFile);
    expect(toolLog.filter((line) => line.endsWith(" three"))).toEqual([`${inFlightId} three`, `${inFlightId} three`]);
    expect(toolLog.filter((line) => !line.endsWith(" three"))).toHaveLength(3);
    const started = readEvents(files.eventsFile).filter((event) => event.type === "harness.tool_call.started");
    expect(started).toHaveLength(4);
  });
});
