import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./__fixtures__/run-little.js";
import { runCli } from "./cli.js";

// In-process runs of the same entry point bin.ts uses, for the cases that need no child process.
let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "little-run-cli-"));
  writeFileSync(join(workDir, "plan.json"), readFileSync(join(repoRoot, "apps/quickstart/support-ticket.lwir.json")));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join("") };
}

async function run(argv: string[], stdinText = ""): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const stdout = capture();
  const stderr = capture();
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const exitCode = await runCli(argv, { cwd: workDir, stdout: stdout.stream, stderr: stderr.stream, stdin, env: {} });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

describe("runCli", () => {
  it("resolves paths against the given working directory", async () => {
    expect(await run(["validate", "plan.json"])).toEqual({ exitCode: 0, stdout: "plan.json: valid LWIR (0 findings)\n", stderr: "" });
  });

  it("reads the given stdin for `-`", async () => {
    const result = await run(["validate", "-", "--json"], '{"kind":"Workflow"}');
    expect(result.exitCode).toBe(1);
    expect((JSON.parse(result.stdout) as { valid: boolean }).valid).toBe(false);
  });

  it("never throws: usage and I/O errors resolve to 2 with one stderr line", async () => {
    expect(await run(["validate", "missing.json"])).toEqual({ exitCode: 2, stdout: "", stderr: "little: cannot read missing.json: no such file — check the path\n" });
    expect((await run(["validate", "--bogus", "plan.json"])).exitCode).toBe(2);
  });

  it("prints the stack trace only when LITTLE_DEBUG is set", async () => {
    const stderr = capture();
    const exitCode = await runCli(["validate", "missing.json"], { cwd: workDir, stderr: stderr.stream, env: { LITTLE_DEBUG: "1" } });
    expect(exitCode).toBe(2);
    const lines = stderr.text().trimEnd().split("\n");
    expect(lines[0]).toBe("little: cannot read missing.json: no such file — check the path");
    expect(lines[1]).toMatch(/^CliInputError: /);
    expect(lines.length).toBeGreaterThan(2);
  });
});
