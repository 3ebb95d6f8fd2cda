import { Writable } from "node:stream";
import { runCli } from "@little-stack/cli";

/** Runs a `little` command in this process; its stdout is returned, stderr goes to ours. */
export async function captureLittle(argv: readonly string[]): Promise<{ exitCode: number; stdout: string }> {
  const chunks: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const exitCode = await runCli(argv, { stdout, stderr: process.stderr, env: process.env });
  return { exitCode, stdout: chunks.join("") };
}
