import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const childFile = fileURLToPath(new URL("./kill-child.ts", import.meta.url));

export type ChildRun = {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed) and stdout. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
};

export function spawnKillChild(args: readonly string[], options: { readonly modelURL: string; readonly harness?: "fake" | "default"; readonly scenario?: string }): ChildRun {
  const env = { ...process.env, KILL_CHILD_HARNESS: options.harness ?? "fake", KILL_CHILD_MODEL_URL: options.modelURL, KILL_CHILD_SCENARIO: options.scenario ?? "loop" };
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", childFile, ...args], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
