import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (child processes run TypeScript sources from there). */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const tsxLoader = pathToFileURL(createRequire(`${repoRoot}package.json`).resolve("tsx")).href;

/**
 * Runs a demo script the way its package.json `demo` script does (node with the source
 * condition and tsx), offline: provider variables are removed from the environment.
 */
export function runDemo(script: string, args: readonly string[] = []): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "LITTLE_DEMO_MODEL"]) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, ["--conditions=@little-stack/source", "--import", tsxLoader, script, ...args], { cwd: repoRoot, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exitCode: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
  });
}
