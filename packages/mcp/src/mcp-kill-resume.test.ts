import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile } from "@little-stack/testing";
import { afterAll, describe, expect, it } from "vitest";

const child = fileURLToPath(new URL("./__fixtures__/mcp-kill-child.ts", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshRun(): { dataDir: string; callLog: string } {
  const dataDir = mkdtempSync(join(tmpdir(), "little-mcp-kill-"));
  dirs.push(dataDir);
  return { dataDir, callLog: join(dataDir, "tools-call.log") };
}

const serverCalls = (callLog: string) => (existsSync(callLog) ? readFileSync(callLog, "utf8").trim().split("\n") : []);

describe("MCP tools in a durable run (server-everything over stdio, real processes, SIGKILL)", () => {
  it("a run killed after its MCP calls resumes without asking the server to run a recorded tool again", async () => {
    const { dataDir, callLog } = freshRun();
    const killed = await runTypeScriptFile(child, [dataDir, callLog, "kill"]);
    expect(killed.signal).toBe("SIGKILL");
    // tool.call step "say" (echo) and the code.run step's tools["get-sum"] call both reached the server.
    expect(serverCalls(callLog)).toEqual(["echo", "get-sum"]);

    const resumed = await runTypeScriptFile(child, [dataDir, callLog, "resume"]);
    expect(resumed.exitCode).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ status: "completed", output: { echo: "Echo: hello mcp", sum: "The sum of 2 and 3 is 5." } });
    expect(serverCalls(callLog)).toEqual(["echo", "get-sum"]); // nothing was called again
  }, 90_000);

  it("a resume while the server lists a changed tool fails with capability drift, before calling anything", async () => {
    const { dataDir, callLog } = freshRun();
    expect((await runTypeScriptFile(child, [dataDir, callLog, "kill"])).signal).toBe("SIGKILL");
    const drifted = await runTypeScriptFile(child, [dataDir, callLog, "changed"]);
    const { error } = JSON.parse(drifted.stdout) as { error: { name: string; causeCode: string; message: string } };
    expect(error).toMatchObject({ name: "RunFailedError", causeCode: "capability_drift" });
    expect(error.message).toContain('description: "Echoes back the input string" → "Echoes back the input string (version 2)"');
    expect(serverCalls(callLog)).toEqual(["echo", "get-sum"]);
  }, 90_000);
});
