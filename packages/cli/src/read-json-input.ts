import { isUtf8 } from "node:buffer";
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
  const bytes = path === "-" ? await readStream(stdin) : await readFileBytes(resolve(cwd, path), path);
  const text = decodeUtf8(bytes, displayName);
  try {
    // A UTF-8 byte order mark is not JSON, but editors write it; accept it.
    return { displayName, value: JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text) as unknown };
  } catch (error) {
    const reason =
      text.trim() === ""
        ? "the file is empty"
        : error instanceof RangeError
          ? "it nests too deeply to be read"
          : (error as Error).message.replace(/\s*\n\s*/g, " ").slice(0, 200);
    throw new CliInputError(`${displayName} is not valid JSON: ${reason} — fix the syntax and try again`, { cause: error });
  }
}

/**
 * Strict UTF-8: Node's decoder would silently turn invalid bytes into U+FFFD, and the run would
 * then record (and hash) different text than the file holds.
 */
function decodeUtf8(bytes: Buffer, displayName: string): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  throw new CliInputError(`${displayName} is not valid UTF-8 text (first invalid byte at offset ${firstInvalidUtf8Offset(bytes)}) — save it as UTF-8`);
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8Offset(bytes: Buffer): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || index + length > bytes.length || !isUtf8(bytes.subarray(index, index + length))) return index;
    index += length;
  }
  return index;
}

async function readFileBytes(absolutePath: string, shownPath: string): Promise<Buffer> {
  try {
    return await readFile(absolutePath);
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

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
