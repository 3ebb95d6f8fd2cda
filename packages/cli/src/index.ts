// Public surface of @little-stack/cli: an explicit list of named exports.
export type { CliContext } from "./cli-context.js";
export { CliInputError, CliUsageError } from "./cli-errors.js";
export { commands, createCli, runCli, type RunCliOptions } from "./cli.js";
export { ValidateCommand } from "./commands/validate-command.js";
export { type ExitCode, exitCodes } from "./exit-codes.js";
export { type ErrorExit, exitForError } from "./exit-for-error.js";
export { formatFindingsJson, formatFindingsText, type PrintableFinding } from "./format-findings.js";
export { type JsonInput, readJsonInput } from "./read-json-input.js";
export { dataDirOption, defaultDataDir, jsonOption } from "./shared-options.js";
