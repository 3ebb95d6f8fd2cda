import { PassThrough, Writable } from "node:stream";
import { runCli } from "../cli.js";
import type { LittleResult } from "./run-little.js";

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join("") };
}

/** Runs `little` in this process through runCli (the entry point bin.ts calls), capturing its output. */
export async function runLittleInProcess(argv: readonly string[], options: { cwd: string; stdin?: string; env?: Record<string, string> }): Promise<LittleResult> {
  const stdout = capture();
  const stderr = capture();
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const exitCode = await runCli(argv, { cwd: options.cwd, stdout: stdout.stream, stderr: stderr.stream, stdin, env: options.env ?? {} });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}
