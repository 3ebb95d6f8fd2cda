import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { usePostgresCluster } from "@little-stack/postgres-world/test";
import { afterAll, describe, expect, it } from "vitest";
import { toolsWorkflow } from "../__fixtures__/cli-workflows.js";
import { repoRoot, runLittle, tsxLoader } from "../__fixtures__/run-little.js";

const toolsModule = fileURLToPath(new URL("../__fixtures__/lookup-tools.ts", import.meta.url));
const binSource = fileURLToPath(new URL("../bin.ts", import.meta.url));
const postgres = usePostgresCluster();
const root = mkdtempSync(join(tmpdir(), "little-fleet-cli-"));

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
});

describe("little worker / little submit / little runs --world", () => {
  it("runs a submitted workflow on a worker process and lists it with its outcome", async () => {
    const workflowFile = join(root, "workflow.json");
    const inputFile = join(root, "input.json");
    writeFileSync(workflowFile, JSON.stringify(toolsWorkflow()));
    writeFileSync(inputFile, JSON.stringify({ id: "abc" }));
    const world = ["--world", postgres.cluster.connectionString, "--schema", "cli_fleet"];
    const worker = spawn(
      process.execPath,
      ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, "worker", ...world, "--data-dir", join(root, "shared"), "--tools", toolsModule, "--json", "--concurrency", "2"],
      { cwd: repoRoot, env: { ...process.env, LITTLE_TEST_TOOL_LOG: join(root, "tools.log") }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let workerOut = "";
    let workerErr = "";
    worker.stdout.on("data", (chunk: Buffer) => (workerOut += chunk.toString()));
    worker.stderr.on("data", (chunk: Buffer) => (workerErr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    try {
      const submitted = await runLittle(["submit", workflowFile, "--input", inputFile, "--run-id", "run-cli-fleet-1", "--wait", ...world]);
      expect(submitted.stderr).toBe("");
      expect(submitted.exitCode).toBe(0);
      const outcome = JSON.parse(submitted.stdout) as { runId: string; status: string; output: unknown };
      expect(outcome).toMatchObject({ runId: "run-cli-fleet-1", status: "completed" });
      // lookup("abc-a").bonus + lookup("abc-bb").bonus, as `little run` computes it.
      expect(outcome.output).toEqual({ total: 11 });

      const listed = await runLittle(["runs", ...world, "--json"]);
      expect(listed.exitCode).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ runId: "run-cli-fleet-1", state: "finished", outcome: "completed", claims: 1, holder: null })]);
      const table = await runLittle(["runs", ...world]);
      expect(table.stdout).toMatch(/run-cli-fleet-1\s+finished\s+completed\s+1/);
    } finally {
      worker.kill("SIGTERM");
    }
    expect(await exited, workerErr).toBe(0);
    const events = workerOut.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { type: string; runId?: string });
    expect(events.map((event) => [event.type, event.runId])).toEqual([
      ["claimed", "run-cli-fleet-1"],
      ["completed", "run-cli-fleet-1"],
    ]);
  }, 120_000);

  it("refuses a missing or malformed --world with one line and exit code 2", async () => {
    const missing = await runLittle(["worker"]);
    expect(missing).toMatchObject({ exitCode: 2, stdout: "" });
    expect(missing.stderr).toMatch(/^little: little worker needs --world postgres:\/\//);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    const malformed = await runLittle(["submit", "x.json", "--input", "y.json", "--world", "mysql://somewhere"]);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toMatch(/--world must be a postgres:\/\/ URL/);
    const badCount = await runLittle(["worker", "--world", postgres.cluster.connectionString, "--concurrency", "zero"]);
    expect(badCount.exitCode).toBe(2);
    expect(badCount.stderr).toMatch(/--concurrency must be a positive integer/);
  }, 60_000);
});
