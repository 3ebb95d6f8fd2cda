import { LittleWorkflowError } from "@little-stack/canonical";
import { CliInputError, CliUsageError } from "./cli-errors.js";
import { type ExitCode, exitCodes } from "./exit-codes.js";
import { printable } from "./printable-text.js";

export type ErrorExit = {
  readonly exitCode: ExitCode;
  /** One line for stderr (without the `little: ` prefix or a newline). */
  readonly message: string;
};

/**
 * Codes of LittleWorkflowErrors that are the user's input or I/O rather than the thing being run.
 * An id the world refuses (`--run-id ../x`) can only come from the command line; a --data-dir that
 * cannot be created or written is an I/O error.
 */
const usageErrorCodes = new Set<string>([
  CliUsageError.code,
  CliInputError.code,
  "world.invalid_id",
  "world.data_dir_not_writable",
  "world.invalid_data_dir",
]);

/** Longest message printed; what a guest or tool put in an error can be far longer than a terminal line. */
const maxMessageLength = 2000;

/**
 * Maps anything a command throws to its exit code and a one-line message. Parse errors from
 * clipanion and the CLI's own usage/input errors are 2; every other failure is 1. Stack traces
 * are never part of the message (set LITTLE_DEBUG=1 to see them).
 */
export function exitForError(error: unknown): ErrorExit {
  const { exitCode, message } = classify(error);
  return { exitCode, message: printable(bounded(message)) };
}

function classify(error: unknown): ErrorExit {
  if (LittleWorkflowError.is(error)) {
    if (usageErrorCodes.has(error.code)) return { exitCode: exitCodes.usage, message: oneLine(error.message) };
    return { exitCode: exitCodes.failure, message: `${error.code}: ${oneLine(error.message)}` };
  }
  if (isClipanionParseError(error)) {
    // "Command not found" lists every command on following lines; name the unknown word instead.
    const input = (error as { input?: unknown }).input;
    if (error.message.startsWith("Command not found") && Array.isArray(input) && typeof input[0] === "string" && input[0] !== "\u0000") {
      return { exitCode: exitCodes.usage, message: `unknown command "${input[0]}" — run "little --help" for the list of commands` };
    }
    return { exitCode: exitCodes.usage, message: `${firstLine(error.message)} — run "little --help" for usage` };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { exitCode: exitCodes.failure, message: `internal error: ${oneLine(message)} (set LITTLE_DEBUG=1 for the stack trace)` };
}

/** clipanion marks its parse and option-validation errors with a `clipanion` property. */
function isClipanionParseError(error: unknown): error is Error {
  return error instanceof Error && typeof (error as { clipanion?: unknown }).clipanion === "object";
}

function bounded(text: string): string {
  return text.length <= maxMessageLength ? text : `${text.slice(0, maxMessageLength)}… [${text.length - maxMessageLength} more characters; LITTLE_DEBUG=1 shows the error in full]`;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]!.trim();
}

function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, " ");
}
