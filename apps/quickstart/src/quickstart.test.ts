import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, withoutProviderVariables } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), "quickstart-sdk-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the quickstart (pnpm demo, pnpm --filter @little-stack-apps/quickstart run demo)", () => {
  it("defines, plans and runs support.summarize-ticket offline, shows events and the report, and a re-run calls no model", async () => {
    const result = await runTypeScriptFile(fileURLToPath(new URL("./quickstart.ts", import.meta.url)), [dataDir], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(result.stderr).not.toContain("quickstart failed");
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    expect(out).toContain("offline: scripted gpt-5 planner and gpt-4o-mini worker");
    expect(out).toMatch(/→ workflow version wfver_[0-9a-f]{16}/);
    expect(out).toContain('"severity": "high"');
    expect(out).toMatch(/#\d+ StepScheduled summarize\n#\d+ StepAttemptStarted summarize\n#\d+ StepCompleted summarize/);
    // The worker's call is priced (gpt-4o-mini is in the bundled registry); the planner's is outside any step.
    expect(out).toMatch(/summarize\s+openai\.chat:gpt-4o-mini\s+1\s+182\s+128 \(70%\)\s+31\s+\$0\.\d+/);
    expect(out).toMatch(/\(outside steps\)\s+-\s+1\s+2400\s+1024 \(43%\)\s+610\s+\$0\.\d+/);
    expect(out).toMatch(/total\s+2\s+2582\s+1152 \(45%\)\s+641\s+\$0\.\d+/);
    expect(out).toContain("→ same output: true, same version: true");
    expect(out).toContain("→ model calls on the second run: planner 0, worker 0");
  }, 180_000);
});
