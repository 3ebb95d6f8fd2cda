import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runLittle } from "./__fixtures__/run-little.js";

// Smoke tests of the real executable: a child process per case, real files in a temp folder.
let workDir: string;
const validDocument = readFileSync(join(repoRoot, "apps/quickstart/support-ticket.lwir.json"), "utf8");

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "little-cli-"));
  writeFileSync(join(workDir, "valid.json"), validDocument);
  writeFileSync(join(workDir, "bom.json"), `\uFEFF${validDocument}`);
  writeFileSync(join(workDir, "broken.json"), '{ "apiVersion": "littleworkflow.dev/v0.1", }');
  writeFileSync(join(workDir, "empty.json"), "");
  writeFileSync(join(workDir, "array.json"), "[]");
  mkdirSync(join(workDir, "folder.json"));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** Asserts the usage/I-O error contract: exit 2, nothing on stdout, exactly one line on stderr. */
function expectOneLineError(result: { exitCode: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^little: [^\n]+\n$/);
  expect(result.stderr).toMatch(pattern);
  expect(result.exitCode).toBe(2);
}

describe.concurrent("little validate", () => {
  it("exits 0 on a valid document and prints the summary", async () => {
    const result = await runLittle(["validate", "valid.json"], { cwd: workDir });
    expect(result).toEqual({ exitCode: 0, stdout: "valid.json: valid LWIR (0 findings)\n", stderr: "" });
  });

  it("validates the quickstart example by its repo-relative path", async () => {
    const result = await runLittle(["validate", "apps/quickstart/support-ticket.lwir.json"]);
    expect(result).toEqual({ exitCode: 0, stdout: "apps/quickstart/support-ticket.lwir.json: valid LWIR (0 findings)\n", stderr: "" });
  });

  it("exits 1 on an invalid document: one `path  code  message` line per finding, then a summary", async () => {
    const result = await runLittle(["validate", "apps/quickstart/invalid.lwir.json"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    const findingLines = lines.slice(0, -1);
    expect(lines.at(-1)).toBe(`apps/quickstart/invalid.lwir.json: invalid LWIR (${findingLines.length} findings)`);
    for (const line of findingLines) expect(line).toMatch(/^\$\S*  [a-z_]+(\.[a-z_]+)+  \S.*$/);
    // The four mistakes apps/quickstart/README.md describes.
    const codes = findingLines.map((line) => line.split("  ")[1]);
    expect([...codes].sort()).toEqual(["model.disallowed", "output.missing_values", "step.undeclared_dependency", "terminal.ambiguous"]);
    expect(findingLines).toContainEqual(expect.stringMatching(/^\$\.steps\[0\]\.with\.model  model\.disallowed  .*gpt-5/));
  });

  it("prints { valid, findings } with --json", async () => {
    const valid = await runLittle(["validate", "--json", "valid.json"], { cwd: workDir });
    expect(valid.exitCode).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, findings: [] });

    const invalid = await runLittle(["validate", join(repoRoot, "apps/quickstart/invalid.lwir.json"), "--json"]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toBe("");
    const report = JSON.parse(invalid.stdout) as { valid: boolean; findings: Record<string, unknown>[] };
    expect(report.valid).toBe(false);
    expect(Object.keys(report)).toEqual(["valid", "findings"]);
    expect(report.findings.length).toBeGreaterThan(1);
    for (const finding of report.findings) {
      expect(Object.keys(finding)).toEqual(["severity", "code", "path", "message"]);
      expect(finding["severity"]).toBe("error");
    }
    expect(report.findings).toContainEqual(expect.objectContaining({ code: "model.disallowed", path: "$.steps[0].with.model" }));
  });

  it("treats well-formed JSON that is not a workflow as invalid (exit 1), not as an I/O error", async () => {
    const result = await runLittle(["validate", "array.json", "--json"], { cwd: workDir });
    expect(result.exitCode).toBe(1);
    expect((JSON.parse(result.stdout) as { valid: boolean }).valid).toBe(false);
  });

  it("reads standard input for `-`", async () => {
    const result = await runLittle(["validate", "-"], { stdin: validDocument });
    expect(result).toEqual({ exitCode: 0, stdout: "<stdin>: valid LWIR (0 findings)\n", stderr: "" });
  });

  it("accepts a UTF-8 byte order mark and the shared --data-dir option", async () => {
    const result = await runLittle(["validate", "bom.json", "--data-dir", "elsewhere"], { cwd: workDir });
    expect(result).toEqual({ exitCode: 0, stdout: "bom.json: valid LWIR (0 findings)\n", stderr: "" });
  });

  it("exits 2 with one line for a missing file", async () => {
    const result = await runLittle(["validate", "nope.json"], { cwd: workDir });
    expectOneLineError(result, /^little: cannot read nope\.json: no such file — check the path\n$/);
  });

  it("exits 2 with one line for a directory", async () => {
    const result = await runLittle(["validate", "folder.json"], { cwd: workDir });
    expectOneLineError(result, /^little: cannot read folder\.json: it is a directory — pass the path of a JSON file\n$/);
  });

  it("exits 2 with one line for invalid JSON, also with --json", async () => {
    expectOneLineError(await runLittle(["validate", "broken.json"], { cwd: workDir }), /^little: broken\.json is not valid JSON: .+ — fix the syntax and try again\n$/);
    expectOneLineError(await runLittle(["validate", "broken.json", "--json"], { cwd: workDir }), /is not valid JSON/);
  });

  it("exits 2 with one line for an empty file", async () => {
    const result = await runLittle(["validate", "empty.json"], { cwd: workDir });
    expectOneLineError(result, /^little: empty\.json is not valid JSON: the file is empty/);
  });

  it("exits 2 with one line for an unknown flag, a missing argument or an unknown command", async () => {
    const [badFlag, noFile, unknownCommand] = await Promise.all([
      runLittle(["validate", "valid.json", "--strict"], { cwd: workDir }),
      runLittle(["validate"], { cwd: workDir }),
      runLittle(["frobnicate"], { cwd: workDir }),
    ]);
    expectOneLineError(badFlag, /Unsupported option name \("--strict"\)\. — run "little --help" for usage/);
    expectOneLineError(noFile, /run "little --help" for usage/);
    expectOneLineError(unknownCommand, /^little: unknown command "frobnicate" — run "little --help" for the list of commands\n$/);
  });
});

describe.concurrent("little --help and --version", () => {
  it("lists validate in the help", async () => {
    const result = await runLittle(["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("little validate");
    // Not a terminal: no ANSI colour codes.
    expect(result.stdout).not.toContain("\u001b[");
  });

  it("explains validate with validate --help", async () => {
    const result = await runLittle(["validate", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("--json");
    expect(result.stdout).toContain("Exit code 0 when the document is valid");
  });

  it("prints the package version", async () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, "packages/cli/package.json"), "utf8")) as { version: string };
    const result = await runLittle(["--version"]);
    expect(result).toEqual({ exitCode: 0, stdout: `${manifest.version}\n`, stderr: "" });
  });
});
