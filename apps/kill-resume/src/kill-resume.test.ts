import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, withoutProviderVariables } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), "kill-resume-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the kill-resume demo (pnpm --filter @little-stack-apps/kill-resume run demo)", () => {
  it("kills the run with SIGKILL mid-flight and resumes it; only a call whose result was unrecorded may run again", async () => {
    const result = await runTypeScriptFile(fileURLToPath(new URL("./kill-resume.ts", import.meta.url)), [dataDir], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(result.stderr).not.toContain("kill-resume failed");
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/2\. SIGKILL pid \d+ \(SIGKILL\) after \d+ tool calls and \d+ model requests/);
    expect(out).toMatch(/the log says: running, \d+ events; completed: seed, bump\.visit\[0\], check\.visit\[0\]/);
    // The killed process no longer holds the run's lock: little runs calls the run interrupted.
    expect(out).toMatch(/little runs: interrupted, \d+\/\d+ steps done/);
    expect(out).toContain("completed: 4 loop visits, colors red, green, blue, amber");
    // Only a call whose result was not yet recorded when the process died may run again (same id,
    // once in each process); where the kill lands decides whether there is one, so allow it.
    const calls = readFileSync(join(dataDir, "tool-calls.log"), "utf8").trim().split("\n").map((line) => line.split(" "));
    const repeated = calls.length - new Set(calls.map((call) => call[1])).size;
    expect(out).toContain(`tool calls that ran twice: ${repeated}`);
    expect(repeated).toBeLessThanOrEqual(2);
    for (const id of new Set(calls.map((call) => call[1]))) {
      const runs = calls.filter((call) => call[1] === id);
      if (runs.length > 1) expect(new Set(runs.map((call) => call[2])).size).toBe(runs.length);
    }
    const pids = [...new Set(calls.map((call) => call[2]))];
    expect(pids).toHaveLength(2);
    expect(calls.filter((call) => call[0] === "bump").every((call) => call[2] === pids[0])).toBe(true);
    expect(calls.filter((call) => call[0] === "record:final").map((call) => call[2])).toEqual([pids[1]]);
    expect(new Set(calls.filter((call) => call[0] === "record:paint").map((call) => call[3]))).toEqual(new Set(['"red"', '"green"', '"blue"', '"amber"']));
    // One model request per branch, plus at most one per branch in flight at the kill (2 at a time).
    const requests = /model requests: (\d+) before the kill, (\d+) after/.exec(out)!;
    const total = Number(requests[1]) + Number(requests[2]);
    expect(total).toBeGreaterThanOrEqual(4);
    expect(total).toBeLessThanOrEqual(6);
  }, 180_000);
});
