import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { requireKnownRun } from "../inspect/require-known-run.js";
import { withReadOnlyWorld } from "../open-world.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little replay <runId>`: the run's materialized state, folded from its events. Pure. */
export class ReplayCommand extends Command<CliContext> {
  static override paths = [["replay"]];
  static override usage = Command.Usage({
    description: "Print the materialized state of a run, rebuilt from its events",
    details: `
      Folds the run's events into its state (status, steps with outputs, attempts and usage,
      parallel groups, failure, usage totals) and prints it as one JSON document. Pure: it appends
      nothing, calls no model and no tool, and changes no file in the data dir.
      \`--json\` prints the same document on one line.
    `,
    examples: [["Rebuild a run's state", "little replay run_0123456789abcdef"]],
  });

  runId = Option.String({ name: "runId" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      await requireKnownRun({ world, runId: this.runId, dataDir: this.dataDir });
      const { replayRun } = await import("@little-stack/runtime/run-state");
      const state = await replayRun(world, this.runId);
      this.context.stdout.write(`${this.json ? JSON.stringify(state) : JSON.stringify(state, null, 2)}\n`);
    });
    return exitCodes.success;
  }
}
