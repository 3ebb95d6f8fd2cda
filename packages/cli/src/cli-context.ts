import type { BaseContext } from "clipanion";

/** What every command gets: standard streams, the environment and the directory paths resolve against. */
export type CliContext = BaseContext & {
  readonly cwd: string;
};
