import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** How a TypeScript child process ended, with everything it printed. */
export type TypeScriptFileResult = {
  /** The exit code, or null when a signal ended the process. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
};

export type RunTypeScriptFileOptions = {
  /** The child's working directory (default: this process's). */
  readonly cwd?: string;
  /** The child's whole environment (default `process.env`); pass a copy without a variable to unset it. */
  readonly env?: NodeJS.ProcessEnv;
};

// tsx's loader by absolute URL, resolved upward from this package (the monorepo root's tsx), so the
// child may run in any folder: a bare `--import tsx` would be resolved from the child's cwd.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/**
 * Runs a TypeScript file in a real child process the way the repo's scripts do — `node
 * --conditions=@little-stack/source --import <tsx> file …args`, so workspace packages load from
 * their sources — and resolves when it exits (it never rejects on a non-zero exit).
 */
export function runTypeScriptFile(file: string, args: readonly string[] = [], options: RunTypeScriptFileOptions = {}): Promise<TypeScriptFileResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--conditions=@little-stack/source", "--import", tsxLoader, file, ...args],
      { cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ exitCode: 0, signal: null, stdout, stderr });
        // A string code (ENOENT, ERR_CHILD_PROCESS_STDIO_MAXBUFFER …) means node could not run it at all.
        if (typeof error.code === "string") return reject(error);
        resolve({ exitCode: typeof error.code === "number" ? error.code : null, signal: (error.signal as NodeJS.Signals | undefined) ?? null, stdout, stderr });
      },
    );
  });
}
