import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mountsForRole } from "@little-stack/memory";
import { asSchema } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash-tool.js";
import { bashToolCapabilities, bashToolDefinition } from "./bash-tool-definition.js";
import { truncateOutput } from "./truncate-output.js";

let dataDir: string;

beforeEach(() => {
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), "lw-bash-tool-")));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function plannerTool() {
  const { memoryMounts, scratchMounts } = mountsForRole({ role: "planner", dataDir, workflowId: "wf", runId: "run_1" });
  return createBashTool({ mounts: [...memoryMounts, ...scratchMounts] });
}

describe("bashToolDefinition", () => {
  it("offers { cmd } to the model and returns stdout, stderr and exitCode", async () => {
    const definition = bashToolDefinition(plannerTool());
    expect(definition.description).toContain("Working directory: /mnt/scratch/own.");
    expect(definition.description).toContain("Writable: /mnt/memory/workflow/, /mnt/scratch/own/. Read-only: /mnt/memory/org/.");
    const schema = await asSchema(definition.inputSchema).jsonSchema;
    expect(schema).toMatchObject({ type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] });
    const execute = definition.execute;
    if (execute === undefined) throw new Error("the bash tool must be executable");
    const output = await execute({ cmd: "echo hi; exit 3" }, { toolCallId: "call_1", messages: [] });
    expect(output).toEqual({ stdout: "hi\n", stderr: "", exitCode: 3 });
  });

  it("describes capabilities without host paths", () => {
    const capabilities = bashToolCapabilities(plannerTool());
    expect(capabilities).toEqual({
      cwd: "/mnt/scratch/own",
      mounts: [
        { mountPath: "/mnt/memory/org", mode: "ro" },
        { mountPath: "/mnt/memory/workflow", mode: "rw" },
        { mountPath: "/mnt/scratch/own", mode: "rw" },
      ],
      limits: { maxCommands: 10_000, timeoutMs: 30_000, maxOutputBytes: 65_536 },
      network: "none",
    });
    expect(JSON.stringify(capabilities)).not.toContain(dataDir);
  });
});

describe("truncateOutput", () => {
  it("keeps short output and cuts long output on a character boundary", () => {
    expect(truncateOutput("short", 10)).toBe("short");
    expect(truncateOutput("ééé", 3)).toBe("é\n[output truncated: 4 more bytes]\n");
    expect(truncateOutput("abcdef", 4)).toBe("abcd\n[output truncated: 2 more bytes]\n");
  });
});
