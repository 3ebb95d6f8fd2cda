import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const tsxLoader = pathToFileURL(createRequire(`${repoRoot}package.json`).resolve("tsx")).href;
// The `little` executable from its TypeScript source (what `pnpm build` compiles to dist/bin.js).
const littleBin = createRequire(import.meta.url).resolve("@little-stack/cli/package.json").replace(/package\.json$/, "src/bin.ts");

export type LittleProcess = {
  readonly child: ChildProcess;
  /** Resolves when the process has exited, with its code (null when killed) and stdout. */
  readonly exited: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
};

/** Starts `little <args>` in a child process (a real, separately killable process). */
export function startLittle(args: readonly string[], env: NodeJS.ProcessEnv): LittleProcess {
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, littleBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr }));
  });
  return { child, exited };
}
