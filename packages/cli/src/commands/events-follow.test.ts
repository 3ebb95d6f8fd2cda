import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot, runLittle, tsxLoader } from "../__fixtures__/run-little.js";

const binSource = fileURLToPath(new URL("../bin.ts", import.meta.url));
const gatedTools = fileURLToPath(new URL("../__fixtures__/gated-tools.ts", import.meta.url));

const objectOutput = { mode: "object", schema: { type: "object" } };
const workflow = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "cli.follow", version: "0.1.0" },
  input: { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
  output: { schema: { type: "object" } },
  permissions: { models: [], tools: ["gate"], secrets: [], network: [] },
  steps: [
    { id: "first", uses: "code.run", with: { entrypoint: "main.js", files: { "main.js": { content: "export async function run({ input }) { return { id: input.id + '-1' }; }\n", sha256: "" } }, sandbox: { network: "deny" } }, output: objectOutput },
    { id: "held", uses: "tool.call", needs: ["first"], with: { tool: "gate", args: { id: "{{ steps.first.output.id }}" } }, output: objectOutput },
    { id: "last", uses: "tool.call", needs: ["held"], with: { tool: "gate", args: { id: "last" } }, output: objectOutput },
  ],
};

let dir: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "lw-follow-"));
  const { sha256DigestOfBytes } = await import("@little-stack/canonical");
  const file = workflow.steps[0]!.with.files!["main.js"]!;
  file.sha256 = sha256DigestOfBytes(file.content);
  writeFileSync(join(dir, "workflow.json"), JSON.stringify(workflow));
  writeFileSync(join(dir, "input.json"), JSON.stringify({ id: "t" }));
});
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  children.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

function little(args: readonly string[]): { child: ChildProcess; stdout: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LITTLE_DEBUG: "", LITTLE_TEST_GATE_DIR: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr!.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => out, exited };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 60_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const entered = () => (existsSync(join(dir, "entered")) ? readFileSync(join(dir, "entered"), "utf8").trim().split("\n") : []);

describe("little events --follow", () => {
  it("tails a run another process writes, across a SIGKILL and a resume of the writer, and ends with the run", async () => {
    const dataDir = join(dir, "data");
    const runArgs = ["run", join(dir, "workflow.json"), "--input", join(dir, "input.json"), "--tools", gatedTools, "--run-id", "run-follow", "--data-dir", dataDir];
    const writer = little(runArgs);
    await until(() => entered().length === 1, "the writer to reach the gate");
    const follower = little(["events", "run-follow", "--follow", "--data-dir", dataDir]);
    await until(() => follower.stdout().includes('"StepCompleted"'), "the follower to print the first step");
    writer.child.kill("SIGKILL");
    await writer.exited;

    // The follower waits for the killed run; a new writer resumes it and the gate opens.
    expect(follower.child.exitCode).toBeNull();
    writeFileSync(join(dir, "open"), "");
    const resumed = little(runArgs);
    expect(await resumed.exited).toBe(0);
    expect(await follower.exited).toBe(0);

    const followed = follower.stdout().trim().split("\n").map((line) => JSON.parse(line) as { sequence: number; type: string; eventId: string });
    const all = await runLittle(["events", "run-follow", "--data-dir", dataDir]);
    const stored = all.stdout.trim().split("\n").map((line) => JSON.parse(line) as { sequence: number; type: string; eventId: string });
    expect(followed.map((event) => `${event.sequence} ${event.type} ${event.eventId}`)).toEqual(stored.map((event) => `${event.sequence} ${event.type} ${event.eventId}`));
    expect(followed.at(-1)?.type).toBe("RunCompleted");
    // The held call ran in both writers (in flight at the kill), under two pids.
    expect(new Set(entered().map((line) => line.split(" ")[1])).size).toBe(2);
  }, 120_000);

  it("applies the filters to what it follows", async () => {
    const dataDir = join(dir, "data");
    writeFileSync(join(dir, "open"), "");
    const follower = little(["events", "run-filtered", "--follow", "--type", "Step*", "--data-dir", dataDir]);
    // The data dir does not exist yet: follow refuses it like every read command.
    expect(await follower.exited).toBe(2);
    const run = await runLittle(["run", join(dir, "workflow.json"), "--input", join(dir, "input.json"), "--tools", gatedTools, "--run-id", "run-filtered", "--data-dir", dataDir], { env: { LITTLE_TEST_GATE_DIR: dir } });
    expect(run.exitCode).toBe(0);
    const again = little(["events", "run-filtered", "--follow", "--type", "StepCompleted", "--data-dir", dataDir]);
    expect(await again.exited).toBe(0);
    const types = again.stdout().trim().split("\n").map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(["StepCompleted", "StepCompleted", "StepCompleted"]);
  }, 120_000);
});
