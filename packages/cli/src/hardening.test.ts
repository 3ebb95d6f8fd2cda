import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.js";
import { failingWorkflow, toolsWorkflow } from "./__fixtures__/cli-workflows.js";
import { runLittleInProcess } from "./__fixtures__/run-in-process.js";
import { type LittleResult, tsxLoader } from "./__fixtures__/run-little.js";

// Issue 14: every bad input answered with one clean line, and nothing of the data dir harmed.

let workDir: string;
let toolLog: string;
const toolsModule = fileURLToPath(new URL("./__fixtures__/lookup-tools.ts", import.meta.url));
const binSource = fileURLToPath(new URL("./bin.ts", import.meta.url));
const little = (args: string[]): Promise<LittleResult> => runLittleInProcess(args, { cwd: workDir });
const toolLogLines = (): string[] => readFileSync(toolLog, "utf8").split("\n").filter((line) => line !== "");
// eslint-disable-next-line no-control-regex
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function expectOneLineError(result: LittleResult, exitCode: number, pattern: RegExp): void {
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^little: [^\n]+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.exitCode).toBe(exitCode);
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), "little-cli-hardening-"));
  toolLog = join(workDir, "tools.log");
  writeFileSync(toolLog, "");
  process.env["LITTLE_TEST_TOOL_LOG"] = toolLog;
  writeFileSync(join(workDir, "tools.lwir.json"), JSON.stringify(toolsWorkflow()));
  writeFileSync(join(workDir, "input.json"), JSON.stringify({ id: "x" }));
  const done = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--run-id", "run_sound"]);
  expect(done.exitCode).toBe(0);
}, 120_000);

afterAll(() => {
  delete process.env["LITTLE_TEST_TOOL_LOG"];
  rmSync(workDir, { recursive: true, force: true });
});

describe("little events --type / --step patterns", () => {
  it("matches many stars against a long value at once, and bounds the pattern length with a usage error", async () => {
    const stars = await little(["events", "run_sound", "--type", "************Z"]);
    expect(stars).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    const twelve = await little(["events", "run_sound", "--type", "*a*r*n*e*s*s*.*t*o*o*l*_*succeeded"]);
    expect(twelve.exitCode).toBe(0);
    expect(twelve.stdout.trimEnd().split("\n").every((line) => (JSON.parse(line) as { type: string }).type.endsWith("succeeded"))).toBe(true);
    expectOneLineError(await little(["events", "run_sound", "--type", "*".repeat(5000)]), 2, /^little: --type pattern is 5000 characters long; the limit is 1000/);
    expectOneLineError(await little(["events", "run_sound", "--step", "x".repeat(100_000)]), 2, /^little: --step pattern is 100000 characters long/);
  });
});

describe("--data-dir that cannot be used", () => {
  it("procfs, an empty path, and an events.db that is a directory: one line naming the path, exit 2", async () => {
    for (const dataDir of ["/proc/self", "/proc/1/x"]) {
      expectOneLineError(await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", dataDir]), 2, new RegExp(`^little: .*${dataDir}`));
    }
    expectOneLineError(await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", ""]), 2, /^little: --data-dir is empty/);
    expectOneLineError(await little(["runs", "--data-dir", ""]), 2, /^little: --data-dir is empty/);
    const folderDb = join(workDir, "folder-db");
    mkdirSync(join(folderDb, "events", "events.db"), { recursive: true });
    for (const args of [["runs"], ["events", "run_sound"], ["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule]]) {
      expectOneLineError(await little([...args, "--data-dir", "folder-db"]), 2, /^little: The world's data dir cannot be used: \S*folder-db\/events\/events\.db is a directory/);
    }
  });

  it("a full disk: exit 1, one line, nothing half-written; the same run resumes once there is room", async () => {
    const mountPoint = join(workDir, "small-disk");
    mkdirSync(mountPoint);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint]);
    try {
      // Leave room for the database to open but not for the run's events.
      writeFileSync(join(mountPoint, "filler"), Buffer.alloc(150 * 1024));
      const dataDir = join(mountPoint, "data");
      const full = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", dataDir, "--run-id", "run_full"]);
      expect(full.exitCode).toBe(1);
      const errorLines = full.stderr.split("\n").filter((line) => line.startsWith("little: "));
      expect(errorLines).toHaveLength(1);
      expect(errorLines[0]).toMatch(/^little: world\.(event_log_unavailable|data_dir_write_failed): .*(SQLITE_FULL|ENOSPC)/);
      expect(errorLines[0]).toContain(dataDir);
      const tempFiles = readdirSync(dataDir, { recursive: true, encoding: "utf8" }).filter((path) => path.split("/").at(-1)!.startsWith(".tmp-"));
      expect(tempFiles).toEqual([]);
      rmSync(join(mountPoint, "filler"));
      const resumed = await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", dataDir, "--run-id", "run_full"]);
      expect(resumed.exitCode).toBe(0);
      expect((JSON.parse(resumed.stdout) as { output: unknown }).output).toEqual({ total: 7 });
    } finally {
      execFileSync("umount", [mountPoint]);
    }
  }, 120_000);
});

describe("inputs the log cannot store are refused before the world is opened", () => {
  it("1e400, a lone surrogate, nesting past 1,000 levels, invalid UTF-8: exit 2, one short line, no data dir", async () => {
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ["huge.json", '{"id":"x","n":1e400}', /huge\.json: the input cannot be stored in the run's log: at \$\.n, a number beyond the range of a 64-bit float/],
      ["surrogate.json", '{"id":"\\ud800"}', /surrogate\.json: the input cannot be stored in the run's log: at \$\.id, string contains a lone surrogate/],
      ["deep.json", `{"id":"x","deep":${"[".repeat(1001)}${"]".repeat(1001)}}`, /deep\.json: the input cannot be stored in the run's log: at \$\.deep\S*, nesting deeper than 1000 levels/],
      ["latin1.json", Buffer.concat([Buffer.from('{"id":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]), /latin1\.json is not valid UTF-8 text \(first invalid byte at offset 10\)/],
    ];
    for (const [name, content, pattern] of cases) {
      writeFileSync(join(workDir, name), content);
      const dataDir = `never-${name}`;
      const result = await little(["run", "tools.lwir.json", "--input", name, "--tools", toolsModule, "--data-dir", dataDir]);
      expectOneLineError(result, 2, pattern);
      expect(result.stderr.length).toBeLessThan(300);
      expect(existsSync(join(workDir, dataDir)), name).toBe(false);
    }
  });
});

describe("control characters from a run are escaped in everything printed for a person", () => {
  it("progress lines, error lines and report cells show \\x1b, \\r, \\b instead of sending them", async () => {
    const hostile = "boom\u001b]0;owned\u0007\r\u0008\u001b[2J";
    const workflow = failingWorkflow() as { steps: Array<{ with: { files: Record<string, { content: string; sha256: string }> } }> };
    const { sha256DigestOfBytes } = await import("@little-stack/canonical");
    const source = `export async function run() { throw new Error(${JSON.stringify(hostile)}); }\n`;
    workflow.steps[0]!.with.files = { "main.js": { content: source, sha256: sha256DigestOfBytes(source) } };
    writeFileSync(join(workDir, "hostile.lwir.json"), JSON.stringify(workflow));
    // A terminal on stderr: the live progress lines, which quote the guest's error message.
    const chunks: string[] = [];
    const terminal = Object.assign(new Writable({ write: (chunk: Buffer, _encoding, callback) => (chunks.push(chunk.toString()), callback()) }), { isTTY: true });
    const stdout: string[] = [];
    const stdin = new PassThrough();
    stdin.end("");
    const exitCode = await runCli(["run", "hostile.lwir.json", "--input", "input.json", "--run-id", "run_hostile"], {
      cwd: workDir,
      stdin,
      stdout: new Writable({ write: (chunk: Buffer, _encoding, callback) => (stdout.push(chunk.toString()), callback()) }),
      stderr: terminal,
      env: {},
    });
    expect(exitCode).toBe(1);
    const progress = chunks.join("");
    expect(progress).toContain("boom\\x1b]0;owned\\x07\\r\\b\\x1b[2J");
    expect(progress.split("\n").some((line) => rawControl.test(line))).toBe(false);
    // The summary on stdout is JSON: its own escaping applies.
    expect((JSON.parse(stdout.join("")) as { error: { message: string } }).error.message).toContain(hostile);
    const report = await little(["report", "run_hostile"]);
    expect(report.exitCode).toBe(0);
    expect(rawControl.test(report.stdout)).toBe(false);
    // A failure quoting the message: a resume of the failed run reprints it on one escaped line.
    const events = await little(["events", "run_hostile", "--type", "RunFailed"]);
    expect(events.stdout).toContain("\\u001b]0;owned");
    expect(rawControl.test(events.stdout)).toBe(false);
  }, 120_000);
});

describe("read commands read the data dir in place", () => {
  it("leave nothing in the temp folder and name the user's own file when it is corrupt", async () => {
    const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith("little-read-")));
    for (const args of [["runs"], ["events", "run_sound"], ["replay", "run_sound"], ["report", "run_sound"]]) {
      expect((await little(args)).exitCode, args.join(" ")).toBe(0);
    }
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith("little-read-") && !before.has(name))).toEqual([]);
    const copy = join(workDir, "corrupt");
    mkdirSync(join(copy, "events"), { recursive: true });
    writeFileSync(join(copy, "events", "events.db"), Buffer.concat([Buffer.from("not a database at all"), Buffer.alloc(4075)]));
    expectOneLineError(await little(["events", "run_sound", "--data-dir", "corrupt"]), 1, new RegExp(`world\\.event_log_corrupt: The event log ${join(copy, "events", "events.db")} is corrupt`));
  });

  it("a run whose log lost committed events: runs shows it damaged, events and run refuse it, no tool runs again", async () => {
    // `little run` killed while its second tool call hangs: the first call's result is committed,
    // and lives in events.db-wal (the process never closed the database).
    const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, "run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", "lost", "--run-id", "run_lost"], {
      cwd: workDir,
      env: { ...process.env, LITTLE_TEST_TOOL_LOG: toolLog, LITTLE_TEST_BLOCK_SUFFIX: "-a" },
      stdio: "ignore",
    });
    try {
      while (!toolLogLines().includes(`x-a ${child.pid}`)) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      child.kill("SIGKILL");
    }
    await new Promise((resolve) => child.once("close", resolve));
    const executed = toolLogLines().length;
    const eventsDb = join(workDir, "lost", "events", "events.db");
    expect(existsSync(`${eventsDb}-wal`)).toBe(true);
    rmSync(`${eventsDb}-wal`);
    rmSync(`${eventsDb}-shm`, { force: true });
    const runs = await little(["runs", "--data-dir", "lost"]);
    expect(runs.exitCode).toBe(0);
    expect(runs.stdout).toMatch(/run_lost\s+unknown\s+damaged/);
    expect(runs.stdout).toContain("1 damaged run");
    const listed = JSON.parse((await little(["runs", "--data-dir", "lost", "--json"])).stdout) as Array<{ status: string; problem: string }>;
    expect(listed[0]).toMatchObject({ status: "damaged", problem: expect.stringMatching(/^world\.event_log_corrupt: /) });
    expectOneLineError(await little(["events", "run_lost", "--data-dir", "lost"]), 1, /world\.event_log_corrupt: .* at event #1 of run "run_lost": the run committed events through #\d+/);
    expectOneLineError(
      await little(["run", "tools.lwir.json", "--input", "input.json", "--tools", toolsModule, "--data-dir", "lost", "--run-id", "run_lost"]),
      1,
      /world\.event_log_corrupt: .*Resuming would run acknowledged steps again, so the run is refused/,
    );
    expect(toolLogLines().length).toBe(executed);
  }, 120_000);
});

describe("--models", () => {
  it("refuses a baseURL that is not http(s) before anything runs", async () => {
    writeFileSync(join(workDir, "file-models.json"), JSON.stringify({ "gpt-4o-mini": { provider: "openai-compatible", model: "m", baseURL: "file:///etc/passwd" } }));
    const support = readFileSync(fileURLToPath(new URL("../../../apps/quickstart/support-ticket.lwir.json", import.meta.url)));
    writeFileSync(join(workDir, "support.lwir.json"), support);
    writeFileSync(join(workDir, "ticket.json"), JSON.stringify({ ticketId: "T-1", transcript: "It crashes." }));
    expectOneLineError(
      await little(["run", "support.lwir.json", "--input", "ticket.json", "--models", "file-models.json", "--data-dir", "models-never"]),
      2,
      /file-models\.json: slot "gpt-4o-mini"\.baseURL is "file:\/\/\/etc\/passwd", which is not an http:\/\/ or https:\/\/ URL/,
    );
    expect(existsSync(join(workDir, "models-never"))).toBe(false);
  });
});
