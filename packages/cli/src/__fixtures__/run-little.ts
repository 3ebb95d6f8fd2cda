import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root, where child processes run (TypeScript sources resolve from there). */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const binSource = fileURLToPath(new URL("../bin.ts", import.meta.url));
// tsx's loader by absolute URL, so children may run in any folder (a bare `--import tsx` is
// resolved from the child's working directory).
export const tsxLoader = pathToFileURL(createRequire(`${repoRoot}package.json`).resolve("tsx")).href;

export type LittleResult = { readonly exitCode: number | null; readonly stdout: string; readonly stderr: string };

/** Runs the real `little` executable from its TypeScript source in a child process. */
export function runLittle(args: readonly string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<LittleResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["--conditions=@little-stack/source", "--import", tsxLoader, binSource, ...args],
      { cwd: options.cwd ?? repoRoot, env: { ...process.env, LITTLE_DEBUG: "", ...options.env }, encoding: "utf8" },
      (error, stdout, stderr) => {
        resolve({ exitCode: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? "");
  });
}
