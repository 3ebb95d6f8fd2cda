import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolsWorkflow } from "../__fixtures__/cli-workflows.js";
import { repoRoot, runLittle, tsxLoader } from "../__fixtures__/run-little.js";

const binSource = fileURLToPath(new URL("../bin.ts", import.meta.url));
const lookupTools = fileURLToPath(new URL("../__fixtures__/lookup-tools.ts", import.meta.url));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lw-inspect-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("little inspect", () => {
  it("serves the data dir's runs on 127.0.0.1 until interrupted", async () => {
    writeFileSync(join(dir, "workflow.json"), JSON.stringify(toolsWorkflow()));
    writeFileSync(join(dir, "input.json"), JSON.stringify({ id: "x" }));
    const dataDir = join(dir, "data");
    const run = await runLittle(["run", join(dir, "workflow.json"), "--input", join(dir, "input.json"), "--tools", lookupTools, "--run-id", "run-inspected", "--data-dir", dataDir]);
    expect(run.exitCode).toBe(0);
    const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, "inspect", "--port", "0", "--json", "--data-dir", dataDir], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      for (let waited = 0; !out.includes("\n"); waited += 20) {
        if (waited > 60_000 || child.exitCode !== null) throw new Error(`little inspect did not start: ${out}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const { url } = JSON.parse(out) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const runs = (await (await fetch(`${url}api/runs`)).json()) as { runId: string; status: string; workflow: string }[];
      expect(runs).toEqual([expect.objectContaining({ runId: "run-inspected", status: "completed", workflow: "cli.lookup-and-score" })]);
      const page = await fetch(url);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await page.text()).toContain('<script type="module" src="/assets/client/main.js">');
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it("refuses a data dir without runs and a bad port, exit 2", async () => {
    const missing = await runLittle(["inspect", "--data-dir", join(dir, "nothing-here")]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("no events/events.db");
    const port = await runLittle(["inspect", "--port", "http", "--data-dir", dir]);
    expect(port.exitCode).toBe(2);
    expect(port.stderr).toContain("--port must be a number");
  }, 60_000);
});
