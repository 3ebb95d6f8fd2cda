import { spawn } from "node:child_process";

export type CommandResult = {
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
};

/** Runs a program to completion (never through a shell) and resolves with what it printed. */
export function runCommand(
  program: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number },
): Promise<CommandResult> {
  const started = performance.now();
  const command = [program, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 600_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${command}: could not start (${error.message})`));
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ command, exitCode, signal, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The last lines of a command's output, for a failure message. */
export function outputTail(result: CommandResult, lines = 25): string {
  const text = `${result.stdout}\n${result.stderr}`.trim().split("\n");
  return text.slice(-lines).map((line) => `    ${line}`).join("\n");
}
