import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("./compile-child.ts", import.meta.url));

export type ChildOutcome = { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string };

/** Runs compile-child.ts in a real Node process from the TypeScript sources. */
export function spawnCompileChild(args: { readonly dataDir: string; readonly runId: string; readonly mode: "plan" | "kill-after-plan" }): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, args.dataDir, args.runId, args.mode], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
