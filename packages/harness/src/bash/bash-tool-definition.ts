import { tool } from "ai";
import { z } from "zod";
import type { BashExecuteInput, BashExecuteResult, HarnessBashTool } from "./bash-tool.js";

const bashInputSchema = z.object({
  cmd: z.string().min(1).describe("The bash script to run, e.g. `ls /mnt/memory/workflow` or `cat notes.md | grep TODO`."),
});

function describe(bashTool: { execute(input: BashExecuteInput): Promise<BashExecuteResult> } & Partial<HarnessBashTool>): string {
  const lines = [
    "Run a bash script in this session's sandboxed shell (a simulated bash with common Unix commands; no network, no host programs).",
    "Returns { stdout, stderr, exitCode }; a non-zero exitCode means the script failed: read stderr.",
    "Files persist between calls; variables and `cd` do not (each call starts fresh).",
  ];
  if (bashTool.cwd !== undefined) lines.push(`Working directory: ${bashTool.cwd}.`);
  if (bashTool.mounts !== undefined && bashTool.mounts.length > 0) {
    const writable = bashTool.mounts.filter((mount) => mount.mode === "rw").map((mount) => `${mount.mountPath}/`);
    const readOnly = bashTool.mounts.filter((mount) => mount.mode === "ro").map((mount) => `${mount.mountPath}/`);
    lines.push(`Writable: ${writable.join(", ") || "nothing"}. Read-only: ${readOnly.join(", ") || "nothing"}. Everything else does not exist.`);
  }
  return lines.join("\n");
}

/**
 * The bash tool as an AI SDK tool for the agent loop: input `{ cmd }`, output
 * `{ stdout, stderr, exitCode }`. A failing command is a normal result (non-zero exit code), not a
 * tool error, so the model can read stderr and try again.
 */
export function bashToolDefinition(
  bashTool: { execute(input: BashExecuteInput): Promise<BashExecuteResult> } & Partial<HarnessBashTool>,
  options: { readonly description?: string } = {},
) {
  return tool({
    description: options.description ?? describe(bashTool),
    inputSchema: bashInputSchema,
    execute: async ({ cmd }: { cmd: string }) => bashTool.execute({ cmd }),
  });
}

/**
 * What a bash tool can do, without host paths: the input of a manifest's `bashCapabilitiesHash`.
 * Two sessions with the same mounts, modes and limits on different machines describe the same.
 */
export function bashToolCapabilities(bashTool: HarnessBashTool): {
  readonly cwd: string;
  readonly mounts: readonly { readonly mountPath: string; readonly mode: "rw" | "ro" }[];
  readonly limits: HarnessBashTool["limits"];
  readonly network: "none";
} {
  return {
    cwd: bashTool.cwd,
    mounts: [...bashTool.mounts]
      .map((mount) => ({ mountPath: mount.mountPath, mode: mount.mode }))
      .sort((left, right) => (left.mountPath < right.mountPath ? -1 : 1)),
    limits: bashTool.limits,
    network: "none",
  };
}
