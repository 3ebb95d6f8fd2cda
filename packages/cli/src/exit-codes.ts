/** The exit codes of `little` (runtime.md § CLI); no command uses any other. */
export const exitCodes = {
  /** The command did what was asked and what it checked is fine. */
  success: 0,
  /** The thing checked or run failed (invalid document, failed run). */
  failure: 1,
  /** Usage or I/O error: bad flag, missing file, unreadable JSON. */
  usage: 2,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];
