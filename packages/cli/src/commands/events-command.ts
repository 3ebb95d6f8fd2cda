import type { EventEnvelope } from "@little-stack/local-world";
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

      \`--follow\` keeps printing the run's new events as another process commits them (the log is
      read again every 200 ms, read-only) until the run ends — completed or failed, a plan locked,
      a pipeline's orchestrator done. A killed writer leaves it waiting; when the run is resumed,
      its new events follow. A run id with no events yet is waited for.
    `,
    examples: [
      ["All events of a run", "little events run_0123456789abcdef"],
      ["Tool calls made by code.run code", "little events run_0123456789abcdef --type 'harness.tool_call.*' --caller code"],
      ["Everything a step recorded", "little events run_0123456789abcdef --step summarize"],
      ["Tail a run another process is writing", "little events run_0123456789abcdef --follow"],
    ],
  });

  runId = Option.String({ name: "runId" });
  type = Option.String("--type", { description: "Event type pattern (`*` matches anything)" });
  caller = Option.String("--caller", { description: "model or code: who made the tool call" });
  step = Option.String("--step", { description: "Step path pattern (`*` matches anything)" });
  follow = Option.Boolean("--follow", false, { description: "Keep printing new events until the run ends" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    if (this.caller !== undefined && this.caller !== "model" && this.caller !== "code") {
      throw new CliUsageError(`--caller must be "model" or "code", not "${this.caller}"`);
    }
    const typeMatches = this.type === undefined ? undefined : globMatcher(this.type, "--type");
    const stepMatches = this.step === undefined ? undefined : globMatcher(this.step, "--step");
    const caller = this.caller;
    const keep = (event: EventEnvelope): boolean => {
      if (typeMatches !== undefined && !typeMatches(event.type)) return false;
      const payload = (event.payload ?? {}) as Record<string, unknown>;
      if (caller !== undefined && payload["caller"] !== caller) return false;
      if (stepMatches !== undefined) {
        const stepPath = eventStepPath(payload);
        if (stepPath === undefined || !stepMatches(stepPath)) return false;
      }
      return true;
    };
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      if (this.follow) {
        const { followRunEvents } = await import("../inspect/follow-run-events.js");
        await followRunEvents({ world, runId: this.runId, onEvent: (event) => (keep(event) ? this.context.stdout.write(`${JSON.stringify(event)}\n`) : undefined) });
        return;
      }
      await requireKnownRun({ world, runId: this.runId, dataDir: this.dataDir });
      const prefix = this.type === undefined ? "" : literalPrefix(this.type);
      const events = await world.listEvents(this.runId, prefix === "" ? {} : { typePrefix: prefix });
      const lines = events.filter(keep).map((event) => JSON.stringify(event));
      this.context.stdout.write(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
    });
    return exitCodes.success;
  }
}
