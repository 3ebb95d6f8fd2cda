import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, withoutProviderVariables } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), "quickstart-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the little run demo (pnpm --filter @little-stack-apps/quickstart run little-run)", () => {
  it("runs the support-ticket workflow offline, shows events and the report, and the second run calls no model", async () => {
    const result = await runTypeScriptFile(fileURLToPath(new URL("./little-run-demo.ts", import.meta.url)), [dataDir], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(result.stderr).not.toContain("quickstart failed");
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    expect(out).toContain("model: scripted gpt-4o-mini on a loopback server (offline");
    expect(out).toMatch(/"status": "completed"/);
    expect(out).toContain('"severity": "high"');
    expect(out).toMatch(/#\d+ StepCompleted summarize/);
    expect(out).toMatch(/summarize\s+openai-compatible:gpt-4o-mini\s+1\s+182\s+128 \(70%\)\s+31\s+n\/a/);
    expect(out).toMatch(/total\s+1\s+182\s+128 \(70%\)\s+31\s+n\/a/);
    expect(out).toContain("status completed, same output: true");
    expect(out).toContain("model requests: 1 before, 0 new on the second run");
    // Progress of the first run on stderr ends with the run's end; the second run says what it
    // reuses: every recorded event, which ends one after the last step's StepCompleted (RunCompleted).
    expect(result.stderr).toMatch(/#\d+ RunCompleted|run completed/);
    const lastStepCompleted = Number(/#(\d+) StepCompleted summarize/.exec(out)![1]);
    const resumed = /resuming run_quickstart[0-9a-f]+: (\d+) events recorded; completed steps reused: summarize/.exec(result.stderr);
    expect(resumed).not.toBeNull();
    expect(Number(resumed![1])).toBe(lastStepCompleted + 1);
  }, 120_000);
});
