import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { CliInputError } from "./cli-errors.js";

export type JsonInput = {
  /** How to name the input in messages: the path as given, or `<stdin>`. */
  readonly displayName: string;
  readonly value: unknown;
};

/**
 * Reads and parses a JSON file named on the command line (`-` = standard input). Every way it can
 * fail becomes a CliInputError whose one-line message names the file and says what to do.
 */
export async function readJsonInput(options: { path: string; cwd: string; stdin: Readable }): Promise<JsonInput> {
  const { path, cwd, stdin } = options;
  const displayName = path === "-" ? "<stdin>" : path;
  const text = path === "-" ? await readStream(stdin) : await readTextFile(resolve(cwd, path), path);
  try {
    // A UTF-8 byte order mark is not JSON, but editors write it; accept it.
    return { displayName, value: JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as unknown };
  } catch (error) {
    const reason = text.trim() === "" ? "the file is empty" : (error as Error).message.replace(/\s*\n\s*/g, " ");
    throw new CliInputError(`${displayName} is not valid JSON: ${reason} — fix the syntax and try again`, { cause: error });
  }
}

async function readTextFile(absolutePath: string, shownPath: string): Promise<string> {
  try {
    return await readFile(absolutePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file — check the path"
        : code === "EISDIR"
          ? "it is a directory — pass the path of a JSON file"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied — check the file's permissions"
            : `${code ?? (error as Error).message}`;
    throw new CliInputError(`cannot read ${shownPath}: ${reason}`, { cause: error, details: { path: absolutePath, code } });
  }
}

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
