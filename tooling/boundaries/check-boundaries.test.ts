import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeRepo, type FakeRepo } from "./__fixtures__/fake-repo.js";
import { checkRepo } from "./check-repo.js";
import { readRepo } from "./read-repo.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const script = fileURLToPath(new URL("./check-boundaries.ts", import.meta.url));

function runCheck(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let fake: FakeRepo | undefined;
afterEach(() => {
  fake?.dispose();
  fake = undefined;
});

describe("the real repository", () => {
  it("passes the boundary check", () => {
    const repo = readRepo(repoRoot);
    expect(repo.packageFolders).toContain("canonical");
    expect(repo.projects.some((project) => project.kind === "tooling")).toBe(true);
    expect(checkRepo(repo)).toEqual([]);
  });

  it("passes through the command line (pnpm check)", () => {
    const result = runCheck([]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^boundaries: ok — \d+ packages, \d+ apps\/tooling projects, \d+ source files match tooling\/package-graph\.json\n$/);
    expect(result.status).toBe(0);
  });
});

describe("check-boundaries.ts", () => {
  it("exits 1 with one line per violation and a count", () => {
    fake = createFakeRepo();
    fake.write("package.json", { name: "fake", devDependencies: { "@little-stack/top": "workspace:*" } });
    fake.write("packages/middle/src/deep.ts", 'export * from "@little-stack/base/src/index.js";\n');
    const result = runCheck(["--root", fake.rootDir]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^packages\/middle\/src\/deep\.ts: deep-imports "@little-stack\/base\/src\/index\.js".* \[deep-import\]$/);
    expect(lines[1]).toMatch(/^package\.json: devDependencies names workspace package @little-stack\/top .* \[root-dependency\]$/);
    expect(lines[2]).toBe("boundaries: 2 violations of tooling/package-graph.json");
  });

  it("exits 2 on an unknown argument", () => {
    const result = runCheck(["--fix"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('check-boundaries: unexpected argument "--fix" — usage: check-boundaries.ts [--root <repo dir>]\n');
  });
});
