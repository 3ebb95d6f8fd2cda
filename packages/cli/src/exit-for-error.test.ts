import { LittleWorkflowError } from "@little-stack/canonical";
import { UsageError } from "clipanion";
import { describe, expect, it } from "vitest";
import { CliInputError, CliUsageError } from "./cli-errors.js";
import { exitCodes } from "./exit-codes.js";
import { exitForError } from "./exit-for-error.js";

describe("exitForError", () => {
  it("maps the CLI's usage and input errors to 2 with their message on one line", () => {
    expect(exitForError(new CliInputError("cannot read a.json: no such file — check the path"))).toEqual({
      exitCode: exitCodes.usage,
      message: "cannot read a.json: no such file — check the path",
    });
    expect(exitForError(new CliUsageError("--input is required\n  pass a file or -"))).toEqual({
      exitCode: exitCodes.usage,
      message: "--input is required pass a file or -",
    });
  });

  it("maps clipanion's parse errors to 2, keeping only their first line", () => {
    const result = exitForError(new UsageError("Invalid value for --count\n\nmore details"));
    expect(result).toEqual({ exitCode: exitCodes.usage, message: 'Invalid value for --count — run "little --help" for usage' });
  });

  it("names the unknown word when no command matches", () => {
    const notFound = Object.assign(new Error("Command not found; did you mean one of:\n\n  0. little validate <file>\n\nWhile running valdate x"), {
      clipanion: { type: "none" },
      input: ["valdate", "x", "\u0000"],
    });
    expect(exitForError(notFound)).toEqual({ exitCode: exitCodes.usage, message: 'unknown command "valdate" — run "little --help" for the list of commands' });
  });

  it("maps any other Little Workflow error to 1, prefixed by its code", () => {
    const result = exitForError(new LittleWorkflowError("run.failed", "step summarize failed"));
    expect(result).toEqual({ exitCode: exitCodes.failure, message: "run.failed: step summarize failed" });
  });

  it("maps unexpected errors and thrown non-errors to 1 without a stack trace", () => {
    const crash = exitForError(new TypeError("x is not a function"));
    expect(crash.exitCode).toBe(exitCodes.failure);
    expect(crash.message).toBe("internal error: TypeError: x is not a function (set LITTLE_DEBUG=1 for the stack trace)");
    expect(exitForError("boom").message).toBe("internal error: boom (set LITTLE_DEBUG=1 for the stack trace)");
  });

  it("recognises CLI errors as Little Workflow errors with stable codes", () => {
    expect(LittleWorkflowError.is(new CliInputError("x"), "cli.input")).toBe(true);
    expect(LittleWorkflowError.is(new CliUsageError("x"), "cli.usage")).toBe(true);
  });
});
