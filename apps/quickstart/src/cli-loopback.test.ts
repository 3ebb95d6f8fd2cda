import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, startLoopbackOpenAIServer } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

// Acceptance of `little run --models` (issue 9), here rather than in packages/cli because the cli
// may not import @little-stack/testing: the real `little` executable in a child process, its
// ai.generate step pointed at the loopback OpenAI-compatible server running in this process.

const workDir = mkdtempSync(join(tmpdir(), "little-loopback-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const appDir = fileURLToPath(new URL("../", import.meta.url));
const bin = createRequire(import.meta.url).resolve("@little-stack/cli/package.json").replace(/package\.json$/, "src/bin.ts");

const little = (args: readonly string[]) => runTypeScriptFile(bin, args, { cwd: workDir });

describe("little run with --models pointing at an OpenAI-compatible server", () => {
  it("completes, and re-running with the same --run-id makes zero new requests", async () => {
    const answer = { summary: "Login crash on Android 4.2.0.", severity: "high" };
    const server = await startLoopbackOpenAIServer({ script: [{ text: JSON.stringify(answer), usage: { inputTokens: 90, outputTokens: 12, cachedInputTokens: 30 } }] });
    try {
      writeFileSync(join(workDir, "models.json"), JSON.stringify({ "gpt-4o-mini": { provider: "openai-compatible", model: "gpt-4o-mini", baseURL: server.baseURL } }));
      const workflow = join(appDir, "support-ticket.lwir.json");
      const input = join(appDir, "ticket.json");
      const args = ["run", workflow, "--input", input, "--models", "models.json", "--run-id", "run_loopback01"];
      const first = await little(args);
      expect(first.exitCode).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ runId: "run_loopback01", status: "completed", output: answer, usage: { inputTokens: 90, cachedInputTokens: 30, outputTokens: 12, costUsd: null, unpricedCalls: 1 } });
      expect(server.requestCount).toBe(1);
      // The prompt reached the server with the ticket rendered into it.
      expect(JSON.stringify(server.requests[0]!.body)).toContain("T-1042");

      const second = await little(args);
      expect(second.exitCode).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ status: "completed", output: answer });
      expect(server.requestCount).toBe(1);

      const report = await little(["report", "run_loopback01"]);
      expect(report.stdout).toMatch(/summarize\s+openai-compatible:gpt-4o-mini\s+1\s+90\s+30 \(33%\)\s+12\s+n\/a/);
    } finally {
      await server.close();
    }
  }, 180_000);
});
