import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./__fixtures__/run-little.js";
import { exitCodes } from "./exit-codes.js";
import { runCliCapturingOutput } from "./run-cli-capturing-output.js";

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "little-capture-"));
  writeFileSync(join(workDir, "plan.json"), readFileSync(join(repoRoot, "apps/quickstart/support-ticket.lwir.json")));
  writeFileSync(join(workDir, "broken.json"), readFileSync(join(repoRoot, "apps/quickstart/invalid.lwir.json")));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("runCliCapturingOutput", () => {
  it("returns what a successful command printed on stdout, resolving paths against cwd", async () => {
    const result = await runCliCapturingOutput(["validate", "plan.json", "--json"], { cwd: workDir, env: {} });
    expect(result.exitCode).toBe(exitCodes.success);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true });
    expect(result.stderr).toBe("");
  });

  it("returns the exit code and stderr of a failing command, without throwing", async () => {
    const result = await runCliCapturingOutput(["validate", "missing.json"], { cwd: workDir, env: {} });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^little: .*missing\.json/m);
  });

  it("captures an invalid workflow's findings and the usage error of an unknown command", async () => {
    const invalid = await runCliCapturingOutput(["validate", "broken.json", "--json"], { cwd: workDir, env: {} });
    expect(invalid.exitCode).toBe(exitCodes.failure);
    const findings = JSON.parse(invalid.stdout) as { valid: boolean; findings: unknown[] };
    expect(findings.valid).toBe(false);
    expect(findings.findings.length).toBeGreaterThan(0);
    const unknown = await runCliCapturingOutput(["no-such-command"], { cwd: workDir, env: {} });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^little: /);
  });

  it("feeds the stdin text to a command reading `-`", async () => {
    const plan = readFileSync(join(workDir, "plan.json"), "utf8");
    const result = await runCliCapturingOutput(["validate", "-", "--json"], { cwd: workDir, env: {}, stdin: plan });
    expect(result.exitCode).toBe(exitCodes.success);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true });
  });

  it("echoes stderr to echoStderrTo as it is written, and still returns it", async () => {
    const echoed: string[] = [];
    const echoStderrTo = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        echoed.push(chunk.toString());
        callback();
      },
    });
    const result = await runCliCapturingOutput(["validate", "missing.json"], { cwd: workDir, env: {}, echoStderrTo });
    expect(result.stderr).not.toBe("");
    expect(echoed.join("")).toBe(result.stderr);
  });
});
