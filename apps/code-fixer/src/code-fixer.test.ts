import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, withoutProviderVariables } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), "code-fixer-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("the code-fixer demo (pnpm --filter @little-stack-apps/code-fixer run demo)", () => {
  it("shows the sandbox error, the fixer's try_fix in the sandbox, and the fixed source from the events", async () => {
    const workflowBefore = readFileSync(fileURLToPath(new URL("../workflow.lwir.json", import.meta.url)), "utf8");
    const result = await runTypeScriptFile(fileURLToPath(new URL("./code-fixer.ts", import.meta.url)), [dataDir], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(result.stderr).not.toContain("code-fixer failed");
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    // 12.50 × 2 + 3.99 × 3 = 36.97
    expect(out).toContain('status completed, output {"invoiceId":"INV-7","totalCents":3697}');
    expect(out).toMatch(/sandbox\.[a-z_]+: .*TypeError.*amount/);
    expect(out).toContain('try_fix → {"ok":true,"output":{"invoiceId":"INV-7","totalCents":3697}}');
    const fixedPart = out.slice(out.indexOf("(payload.fixedSource)"));
    expect(fixedPart).toContain("Math.round(line.price * 100) * line.quantity");
    expect(fixedPart).not.toContain("pricing.amount");
    // The original source is shown first and the LWIR file is untouched.
    expect(out.slice(0, out.indexOf("$ little run"))).toContain("line.pricing.amount");
    expect(readFileSync(fileURLToPath(new URL("../workflow.lwir.json", import.meta.url)), "utf8")).toBe(workflowBefore);
  }, 180_000);
});
