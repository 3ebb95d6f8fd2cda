import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { CliUsageError } from "../cli-errors.js";
import { exitCodes } from "../exit-codes.js";
import { eventStepPath } from "../inspect/event-step-path.js";
import { globMatcher, literalPrefix } from "../inspect/glob-pattern.js";
import { requireKnownRun } from "../inspect/require-known-run.js";
import { withReadOnlyWorld } from "../open-world.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little events <runId>`: the run's event envelopes as NDJSON, optionally filtered. */
export class EventsCommand extends Command<CliContext> {
  static override paths = [["events"]];
  static override usage = Command.Usage({
    description: "Print a run's events as NDJSON (one envelope per line)",
    details: `
      Prints the stored envelopes \`{ eventId, runId, sequence, type, recordedAt, payload }\` in
      sequence order, one JSON document per line (with or without \`--json\`).
      \`--type\` and \`--step\` take a pattern where \`*\` matches anything (\`harness.tool_call.*\`);
      \`--step\` matches the payload's stepPath; \`--caller\` keeps the tool calls made by the model or
      by code.run code. Filters combine (all must match). Nothing is written.
    `,
    examples: [
      ["All events of a run", "little events run_0123456789abcdef"],
      ["Tool calls made by code.run code", "little events run_0123456789abcdef --type 'harness.tool_call.*' --caller code"],
      ["Everything a step recorded", "little events run_0123456789abcdef --step summarize"],
    ],
  });

  runId = Option.String({ name: "runId" });
  type = Option.String("--type", { description: "Event type pattern (`*` matches anything)" });
  caller = Option.String("--caller", { description: "model or code: who made the tool call" });
  step = Option.String("--step", { description: "Step path pattern (`*` matches anything)" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    if (this.caller !== undefined && this.caller !== "model" && this.caller !== "code") {
      throw new CliUsageError(`--caller must be "model" or "code", not "${this.caller}"`);
    }
    const typeMatches = this.type === undefined ? undefined : globMatcher(this.type, "--type");
    const stepMatches = this.step === undefined ? undefined : globMatcher(this.step, "--step");
    const caller = this.caller;
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      await requireKnownRun({ world, runId: this.runId, dataDir: this.dataDir });
      const prefix = this.type === undefined ? "" : literalPrefix(this.type);
      const events = await world.listEvents(this.runId, prefix === "" ? {} : { typePrefix: prefix });
      const lines: string[] = [];
      for (const event of events) {
        if (typeMatches !== undefined && !typeMatches(event.type)) continue;
        const payload = (event.payload ?? {}) as Record<string, unknown>;
        if (caller !== undefined && payload["caller"] !== caller) continue;
        if (stepMatches !== undefined) {
          const stepPath = eventStepPath(payload);
          if (stepPath === undefined || !stepMatches(stepPath)) continue;
        }
        lines.push(JSON.stringify(event));
      }
      this.context.stdout.write(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
    });
    return exitCodes.success;
  }
}
