import { LittleWorkflowError, type LittleWorkflowErrorOptions } from "@little-stack/canonical";

/**
 * The command line was wrong: unknown flag, missing argument, conflicting options. Exit code 2;
 * the message is printed as is on one line, so it must say what to do.
 */
export class CliUsageError extends LittleWorkflowError {
  static readonly code = "cli.usage";

  constructor(message: string, options: LittleWorkflowErrorOptions = {}) {
    super(CliUsageError.code, message, options);
  }
}

/**
 * A file named on the command line could not be used: missing, a directory, unreadable, or not
 * JSON. Exit code 2, one line on stderr.
 */
export class CliInputError extends LittleWorkflowError {
  static readonly code = "cli.input";

  constructor(message: string, options: LittleWorkflowErrorOptions = {}) {
    super(CliInputError.code, message, options);
  }
}

/**
 * The workflow file is JSON but not valid LWIR. Exit code 1 (the thing checked failed), one line
 * with the first finding; `little validate` lists them all.
 */
export class CliInvalidWorkflowError extends LittleWorkflowError {
  static readonly code = "cli.invalid_workflow";
  constructor(message: string, options: LittleWorkflowErrorOptions = {}) {
    super(CliInvalidWorkflowError.code, message, options);
  }
}
