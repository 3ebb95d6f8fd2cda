import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root, from this file's location (packages/local-world/src/__fixtures__). */
export const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** A child process running one of these TypeScript fixtures from source, with its stdout as lines. */
export type FixtureProcess = {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every complete stdout line so far (a line cut by a kill is never included). */
  readonly lines: string[];
  /** Resolves with the first line (from the start) that satisfies `match`. */
  waitForLine(match: (line: string) => boolean): Promise<string>;
  /** Resolves when the process has exited (and been reaped). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
};

export function spawnFixture(fixture: string, args: readonly string[]): FixtureProcess {
  const script = fileURLToPath(new URL(`./${fixture}`, import.meta.url));
  const child = spawn(process.execPath, ["--conditions=@little-stack/source", "--import", "tsx", script, ...args], {
    cwd: repositoryRoot,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let pending = "";
  let errorText = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    errorText += chunk;
  });
  child.stdout.on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
      newline = pending.indexOf("\n");
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => {
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`fixture ${fixture} exited (${String(code ?? signal)}) before the expected line; stderr:\n${errorText}`));
      }
      resolve({ code, signal });
    });
  });
  return {
    child,
    lines,
    exited,
    stderr: () => errorText,
    waitForLine(match) {
      const found = lines.find(match);
      if (found !== undefined) return Promise.resolve(found);
      if (child.exitCode !== null || child.signalCode !== null) {
        return Promise.reject(new Error(`fixture ${fixture} already exited; stderr:\n${errorText}`));
      }
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
  };
}
