import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LittleWorkflowError } from "@little-stack/canonical";
import type { ScriptedTurn } from "../scripted-model/scripted-turn.js";
import { asksForJson, chatRequestParts } from "./chat-request-parts.js";
import { estimateUsage } from "./estimate-usage.js";
import { fileAnswerForm, parseFileAnswer } from "./parse-file-answer.js";
import { renderChatRequest } from "./render-chat-request.js";
import type { LoopbackRequest, LoopbackRespond } from "./start-loopback-openai-server.js";

export type FileBackedAnswersOptions = {
  /** Where request files are written and response files are read (created when missing). */
  readonly dir: string;
  /** How often a pending request looks for its response file (default 250 ms). */
  readonly pollMs?: number;
  /** Give up on a request after this long (answered as a provider error); default: wait for ever. */
  readonly timeoutMs?: number;
  /** Told about each request once its files are written (progress output, a watcher). */
  readonly onRequest?: (request: FileBackedRequest) => void;
};

export type FileBackedRequest = {
  /** `0001`, `0002`, …: the file-name prefix of this request. */
  readonly number: string;
  readonly requestJsonPath: string;
  readonly requestMarkdownPath: string;
  readonly responsePath: string;
  readonly errorPath: string;
};

export type FileBackedAnswers = {
  /** A `respond` for `startLoopbackOpenAIServer`. */
  readonly respond: LoopbackRespond;
  /** Stops every wait (each pending request is answered with an error); later requests fail at once. */
  stop(): void;
};

/** An option of the file-backed answers that cannot work. */
export class FileBackedAnswersOptionError extends LittleWorkflowError {
  constructor(options: { readonly option: string; readonly value: unknown; readonly expected: string }) {
    super("testing.invalid_option", `fileBackedAnswers: ${options.option} must be ${options.expected}, got ${JSON.stringify(options.value)}.`, { details: { ...options } });
  }
}

const requestFilePattern = /^(\d{4,})\.request\.json$/;

/**
 * Answers each chat-completion request from a file that a person or an LLM writes: request n is
 * written as `<NNNN>.request.json` (the body as received) and `<NNNN>.request.md` (what the model
 * sees, readable — written last, so its presence means the request is complete); the answer is
 * `<NNNN>.response.json` in the ScriptedTurn form (`fileAnswerForm`). A malformed answer gets
 * `<NNNN>.response-error.txt` saying what is wrong (text that is not JSON only once a second read
 * finds it unchanged: it may be a file caught mid-write), and the wait goes on until the file
 * changes into a valid answer (the error file is then removed). Numbering continues after the highest
 * request already in `dir`, so a second process (a resumed run) never overwrites earlier files.
 * An answer without `usage` gets an estimate (`estimateUsage`: characters / 4).
 */
export function fileBackedAnswers(options: FileBackedAnswersOptions): FileBackedAnswers {
  const pollMs = options.pollMs ?? 250;
  if (!Number.isSafeInteger(pollMs) || pollMs < 1) throw new FileBackedAnswersOptionError({ option: "pollMs", value: options.pollMs, expected: "a positive integer (milliseconds)" });
  if (options.timeoutMs !== undefined && (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs < 1)) {
    throw new FileBackedAnswersOptionError({ option: "timeoutMs", value: options.timeoutMs, expected: "a positive integer (milliseconds) or undefined (wait for ever)" });
  }
  if (typeof options.dir !== "string" || options.dir.length === 0) throw new FileBackedAnswersOptionError({ option: "dir", value: options.dir, expected: "a directory path" });
  const { dir } = options;
  let nextNumber: Promise<number> | undefined;
  let issued = 0;
  let stopped = false;
  const wakers = new Set<() => void>();

  const numberFor = async (): Promise<string> => {
    nextNumber ??= firstFreeNumber(dir);
    const number = (await nextNumber) + issued;
    issued += 1;
    return String(number).padStart(4, "0");
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  const respond = async (request: LoopbackRequest): Promise<ScriptedTurn> => {
    if (stopped) return { error: "file-backed answers were stopped" };
    const number = await numberFor();
    const files = filesFor(dir, number);
    await writeAtomically(files.requestJsonPath, `${JSON.stringify(request.body, null, 2)}\n`);
    await writeAtomically(files.requestMarkdownPath, renderChatRequest({ body: request.body, number }));
    options.onRequest?.(files);
    const parts = chatRequestParts(request.body);
    const rules = { toolNames: parts.tools.map((tool) => tool.name), jsonText: asksForJson(parts) };
    const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
    let rejected: string | undefined;
    let unsettled: string | undefined;
    for (;;) {
      if (stopped) return { error: `file-backed answers were stopped while request ${number} waited for ${number}.response.json` };
      const text = await readIfPresent(files.responsePath);
      if (text !== undefined && text !== rejected) {
        const parsed = parseFileAnswer(text, rules);
        if (parsed.turn !== undefined) {
          await rm(files.errorPath, { force: true });
          return parsed.turn.usage === undefined ? { ...parsed.turn, usage: estimateUsage(request.body, parsed.turn) } : parsed.turn;
        }
        // Text that does not parse may be a file caught mid-write (writeFile and most editors
        // truncate first): it is judged only when the next read finds the same text. Valid
        // answers and well-formed but wrong ones are taken at once.
        if (parsed.unparsable === true && text !== unsettled) {
          unsettled = text;
        } else {
          rejected = text;
          await writeAtomically(files.errorPath, errorReport(number, parsed.problems));
        }
      }
      if (Date.now() >= deadline) return { error: `no valid ${number}.response.json in ${dir} within ${options.timeoutMs} ms` };
      await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
    }
  };

  return {
    respond,
    stop: () => {
      stopped = true;
      for (const wake of [...wakers]) wake();
    },
  };
}

function filesFor(dir: string, number: string): FileBackedRequest {
  return {
    number,
    requestJsonPath: join(dir, `${number}.request.json`),
    requestMarkdownPath: join(dir, `${number}.request.md`),
    responsePath: join(dir, `${number}.response.json`),
    errorPath: join(dir, `${number}.response-error.txt`),
  };
}

async function firstFreeNumber(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  let highest = 0;
  for (const name of await readdir(dir)) {
    const match = requestFilePattern.exec(name);
    if (match !== null) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

function errorReport(number: string, problems: readonly string[]): string {
  return [
    `${number}.response.json was not accepted:`,
    ...problems.map((problem) => `- ${problem}`),
    "",
    "Expected form:",
    fileAnswerForm,
    "",
    `Write a corrected ${number}.response.json: the request is still waiting and reads the file again when it changes.`,
    "",
  ].join("\n");
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Written beside the target, then renamed: a reader never sees half a file. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, "utf8");
  await rename(temporary, path);
}
