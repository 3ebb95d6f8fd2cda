import { PassThrough, Writable } from "node:stream";
import { runCli } from "./cli.js";
import type { ExitCode } from "./exit-codes.js";

export type RunCliCapturingOutputOptions = {
  /** The environment the command sees (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** The directory relative paths resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /** What the command reads as standard input (`--input -`); empty when omitted. */
  readonly stdin?: string;
  /** Also receives stderr as it is written, e.g. `process.stderr` to show a run's progress live. */
  readonly echoStderrTo?: NodeJS.WritableStream;
};

/** What an in-process `little` command printed, and its exit code. */
export type CapturedCliOutput = {
  readonly exitCode: ExitCode;
  readonly stdout: string;
  readonly stderr: string;
};

/**
 * Runs a `little` command in this process (no child, no build) and returns its exit code and what
 * it printed on stdout and stderr. Like `runCli`, it never throws.
 */
export async function runCliCapturingOutput(argv: readonly string[], options: RunCliCapturingOutputOptions = {}): Promise<CapturedCliOutput> {
  const stdout = new TextCollector();
  const stderr = new TextCollector(options.echoStderrTo);
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const exitCode = await runCli(argv, {
    stdin,
    stdout,
    stderr,
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** A stream keeping what is written to it (not a terminal, so progress comes as plain lines). */
class TextCollector extends Writable {
  readonly #chunks: string[] = [];
  readonly #echo: NodeJS.WritableStream | undefined;

  constructor(echo?: NodeJS.WritableStream) {
    super();
    this.#echo = echo;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = chunk.toString();
    this.#chunks.push(text);
    this.#echo?.write(text);
    callback();
  }

  text(): string {
    return this.#chunks.join("");
  }
}
