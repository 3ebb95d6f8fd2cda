import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { TsxUnavailableError } from "./tsx-unavailable-error.js";

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
  /**
   * Extra `--conditions` for the child's module resolution. Default: `["@little-stack/source"]`
   * when this package itself was loaded from its TypeScript sources (inside the Little Workflow
   * repository, so workspace packages load from `src/` without a build), none when it was
   * installed from npm (packages load from `dist/`, as in any Node program).
   */
  readonly conditions?: readonly string[];
};

// Loaded from src/*.ts means the repository's source condition is in force for this process.
const loadedFromSources = import.meta.url.endsWith(".ts");
const defaultConditions: readonly string[] = loadedFromSources ? ["@little-stack/source"] : [];

let tsxLoader: string | undefined;

// tsx's loader by absolute URL, resolved upward from this package (an installed tsx, or the monorepo
// root's), so the child may run in any folder: a bare `--import tsx` would be resolved from the
// child's cwd. Resolved on first use, so importing @little-stack/testing never needs tsx.
function resolveTsxLoader(): string {
  if (tsxLoader !== undefined) return tsxLoader;
  try {
    tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  } catch (cause) {
    throw new TsxUnavailableError(cause);
  }
  return tsxLoader;
}

/**
 * Runs a TypeScript file in a real child process — `node [--conditions=…] --import <tsx> file
 * …args` — and resolves when it exits (it never rejects on a non-zero exit). Needs `tsx` (an
 * optional peer dependency of this package); without it, rejects with `TsxUnavailableError`.
 */
export function runTypeScriptFile(file: string, args: readonly string[] = [], options: RunTypeScriptFileOptions = {}): Promise<TypeScriptFileResult> {
  return new Promise((resolve, reject) => {
    let loader: string;
    try {
      loader = resolveTsxLoader();
    } catch (error) {
      return reject(error);
    }
    const conditions = (options.conditions ?? defaultConditions).map((condition) => `--conditions=${condition}`);
    execFile(
      process.execPath,
      [...conditions, "--import", loader, file, ...args],
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
