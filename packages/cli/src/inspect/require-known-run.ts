import type { RunSummary, World } from "@little-stack/local-world";
import { CliUsageError } from "../cli-errors.js";

/** The run's summary; an id with no events is a usage error (exit 2) that says how to list runs. */
export async function requireKnownRun(options: { world: World; runId: string; dataDir: string }): Promise<RunSummary> {
  const summary = await options.world.getRun(options.runId);
  if (summary === undefined) {
    throw new CliUsageError(`unknown run id "${options.runId}" in ${options.dataDir} — run "little runs" to list the runs there`);
  }
  return summary;
}
