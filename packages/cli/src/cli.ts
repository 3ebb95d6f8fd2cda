import { readFileSync } from "node:fs";
import { Builtins, Cli, type Command, type CommandClass } from "clipanion";
import type { CliContext } from "./cli-context.js";
import { EventsCommand } from "./commands/events-command.js";
import { InspectCommand } from "./commands/inspect-command.js";
import { ReplayCommand } from "./commands/replay-command.js";
import { ReportCommand } from "./commands/report-command.js";
import { RunCommand } from "./commands/run-command.js";
import { RunsCommand } from "./commands/runs-command.js";
import { SubmitCommand } from "./commands/submit-command.js";
import { WorkerCommand } from "./commands/worker-command.js";
import { WorldRunsCommand } from "./commands/world-runs-command.js";
import { ValidateCommand } from "./commands/validate-command.js";
import { type ExitCode, exitCodes } from "./exit-codes.js";
import { exitForError } from "./exit-for-error.js";

/** Every command of `little`, one file each under commands/. New commands are added here. */
export const commands: readonly CommandClass<CliContext>[] = [
  ValidateCommand,
  RunCommand,
  EventsCommand,
  ReplayCommand,
  ReportCommand,
  RunsCommand,
  // A fleet on a PostgreSQL world (issue 17): `little runs --world …` is WorldRunsCommand.
  SubmitCommand,
  WorkerCommand,
  WorldRunsCommand,
  // The web inspector (issue 16); @little-stack/inspector loads only when it runs.
  InspectCommand,
];

export type RunCliOptions = Partial<CliContext>;

/** The `little` command-line interface with its commands, `--help` and `--version`. */
export function createCli(options: { enableColors?: boolean } = {}): Cli<CliContext> {
  const cli = new Cli<CliContext>({
    binaryLabel: "Little Workflow",
    binaryName: "little",
    binaryVersion: packageVersion(),
    enableColors: options.enableColors ?? false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of commands) cli.register(command);
  return cli;
}

/**
 * Runs `little` with the given arguments (without `node` and the script) and resolves to the exit
 * code. It never throws and never prints a stack trace (unless LITTLE_DEBUG is set): every error
 * becomes one `little: …` line on stderr and exit code 1 or 2 (see exitForError).
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<ExitCode> {
  const base: CliContext = { ...Cli.defaultContext, cwd: process.cwd(), ...options };
  // clipanion assumes colours whenever Node supports them; only use them on a terminal.
  const context: CliContext = { ...base, colorDepth: options.colorDepth ?? terminalColorDepth(base) };
  const cli = createCli({ enableColors: context.colorDepth > 1 });
  try {
    // Not cli.run(): it prints parse errors with full usage on stdout and exits 1, where the
    // contract is one line on stderr and exit 2.
    const command = cli.process([...argv], context);
    if (command.help) {
      context.stdout.write(cli.usage(command, { detailed: true }));
      return exitCodes.success;
    }
    attachCli(command, cli, context);
    const exitCode = await command.validateAndExecute();
    return toExitCode(exitCode);
  } catch (error) {
    const { exitCode, message } = exitForError(error);
    context.stderr.write(`little: ${message}\n`);
    if (context.env["LITTLE_DEBUG"] && error instanceof Error && error.stack !== undefined) context.stderr.write(`${error.stack}\n`);
    return exitCode;
  }
}

/** What clipanion's own run() gives a command, so the builtin help and version commands work. */
function attachCli(command: Command<CliContext>, cli: Cli<CliContext>, context: CliContext): void {
  command.context = context;
  command.cli = {
    binaryLabel: cli.binaryLabel,
    binaryName: cli.binaryName,
    binaryVersion: cli.binaryVersion,
    enableCapture: cli.enableCapture,
    enableColors: cli.enableColors,
    definitions: () => cli.definitions(),
    error: (error, errorOptions) => cli.error(error, errorOptions),
    format: (colored) => cli.format(colored),
    process: (input, subContext) => cli.process(input, { ...context, ...subContext }),
    run: (input, subContext) => cli.run(input, { ...context, ...subContext }),
    usage: (target, usageOptions) => cli.usage(target, usageOptions),
  };
}

function terminalColorDepth(context: CliContext): number {
  if (context.env["NO_COLOR"] !== undefined && context.env["NO_COLOR"] !== "") return 1;
  const stream = context.stdout as { isTTY?: boolean; getColorDepth?: () => number };
  return stream.isTTY === true && typeof stream.getColorDepth === "function" ? stream.getColorDepth() : 1;
}

function toExitCode(value: number | void): ExitCode {
  if (value === undefined || value === exitCodes.success) return exitCodes.success;
  return value === exitCodes.usage ? exitCodes.usage : exitCodes.failure;
}

/** The version printed by `little --version`: this package's own (same path from src/ and dist/). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "0.0.0";
}
