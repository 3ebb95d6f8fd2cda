import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { openFleetWorld, schemaOption } from "../fleet/world-option.js";
import { formatTable } from "../inspect/format-table.js";
import { jsonOption } from "../shared-options.js";

/** `little runs --world postgres://…`: the runs of a PostgreSQL world's queue, with their holders. */
export class WorldRunsCommand extends Command<CliContext> {
  static override paths = [["runs"]];
  static override usage = Command.Usage({
    description: "List the runs of a PostgreSQL world (with --world)",
    details: `
      One line per submitted run, oldest first: id, state (\`queued\`, \`running\`, \`finished\`), outcome,
      how often a worker claimed it, the holder and when its lease lapses, the events recorded.
      \`--json\` prints an array.
    `,
    examples: [["List the fleet's runs", "little runs --world postgres://postgres@127.0.0.1:5432/postgres"]],
  });

  world = Option.String("--world", { required: true, description: "PostgreSQL connection string of the shared world" });
  schema = schemaOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    const world = await openFleetWorld({ command: "runs", world: this.world, schema: this.schema });
    try {
      const submissions = await world.listSubmissions();
      const listing = await Promise.all(
        submissions.map(async (submission) => ({
          runId: submission.runId,
          state: submission.state,
          outcome: submission.outcome ?? null,
          claims: submission.claims,
          holder: submission.state === "running" ? (submission.holder ?? null) : null,
          leaseExpiresAt: submission.state === "running" ? (submission.leaseExpiresAt ?? null) : null,
          eventCount: (await world.getRun(submission.runId))?.eventCount ?? 0,
          submittedAt: submission.submittedAt,
        })),
      );
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
        return exitCodes.success;
      }
      if (listing.length === 0) {
        this.context.stdout.write("no runs submitted to this world\n");
        return exitCodes.success;
      }
      const rows = listing.map((run) => [run.runId, run.state, run.outcome ?? "-", String(run.claims), run.holder ?? "-", run.leaseExpiresAt ?? "-", String(run.eventCount), run.submittedAt]);
      this.context.stdout.write(formatTable({ header: ["run", "state", "outcome", "claims", "holder", "lease until", "events", "submitted"], rows }));
      return exitCodes.success;
    } finally {
      await world.close();
    }
  }
}
