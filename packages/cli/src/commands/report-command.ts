import type { LocalWorld } from "@little-stack/local-world";
import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { formatTable } from "../inspect/format-table.js";
import { stepTimeline, timelineBar } from "../inspect/step-timeline.js";
import { formatDuration } from "../run/progress-printer.js";
import { requireKnownRun } from "../inspect/require-known-run.js";
import { formatDollars, type StepUsageRow, usageReport } from "../inspect/usage-report.js";
import { withReadOnlyWorld } from "../open-world.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little report <runId>`: model calls, tokens and dollars per step, and totals. */
export class ReportCommand extends Command<CliContext> {
  static override paths = [["report"]];
  static override usage = Command.Usage({
    description: "Show model calls, tokens and cost per step of a run",
    details: `
      One row per step path: the model (provider:modelId pinned at run start), model calls, input
      tokens, cached input tokens (with the cache-hit share), output tokens and dollars; then the
      totals. Dollars are \`n/a\` when the model has no price in the registry (unpriced is not free)
      and \`-\` for steps that made no model call. \`--json\` prints \`{ runId, status, steps, totals }\`.

      \`--timeline\` prints when each step path ran instead: its start and duration from the run's
      start, its status and attempts, and a bar on the run's time axis, so steps that ran at the
      same time show side by side (\`--json\`: \`{ runId, status, totalMs, steps: [{ stepPath,
      startMs, endMs, status, attempts }] }\`).
    `,
    examples: [
      ["Cost of a run", "little report run_0123456789abcdef"],
      ["As JSON", "little report run_0123456789abcdef --json"],
      ["When each step ran", "little report run_0123456789abcdef --timeline"],
    ],
  });

  runId = Option.String({ name: "runId" });
  json = jsonOption();
  timeline = Option.Boolean("--timeline", false, { description: "Show when each step ran (start, duration, a bar on the run's time axis)" });
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      await requireKnownRun({ world, runId: this.runId, dataDir: this.dataDir });
      if (this.timeline) {
        await this.printTimeline(world);
        return;
      }
      const { replayRun } = await import("@little-stack/runtime/run-state");
      const report = usageReport(await replayRun(world, this.runId));
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const row = (label: string, model: string, values: Omit<StepUsageRow, "stepPath" | "model">): string[] => [
        label,
        model,
        String(values.modelCalls),
        String(values.inputTokens),
        `${values.cachedInputTokens}${values.inputTokens > 0 ? ` (${Math.round((100 * values.cachedInputTokens) / values.inputTokens)}%)` : ""}`,
        String(values.outputTokens),
        formatDollars(values),
      ];
      const rows = report.steps.map((step) => row(step.stepPath, step.model ?? "-", step));
      rows.push(row("total", "", { ...report.totals, modelCalls: report.totals.modelCalls }));
      this.context.stdout.write(`run ${report.runId} (${report.status})\n`);
      this.context.stdout.write(
        formatTable({ header: ["step", "model", "calls", "tokens in", "cached", "out", "$"], rows, rightAligned: new Set([2, 3, 4, 5]) }),
      );
    });
    return exitCodes.success;
  }

  private async printTimeline(world: LocalWorld): Promise<void> {
    const events = await world.listEvents(this.runId);
    const rows = stepTimeline(events);
    const { materializeRunState } = await import("@little-stack/runtime/run-state");
    const state = materializeRunState(events);
    const runStart = events.find((event) => event.type === "RunStarted") ?? events[0];
    const totalMs = runStart === undefined || events.length === 0 ? 0 : Date.parse(events.at(-1)!.recordedAt) - Date.parse(runStart.recordedAt);
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify({ runId: this.runId, status: state.status, totalMs, steps: rows }, null, 2)}\n`);
      return;
    }
    this.context.stdout.write(`run ${this.runId} (${state.status}), ${formatDuration(totalMs)}\n`);
    const table = rows.map((row) => [
      row.stepPath,
      `+${formatDuration(row.startMs)}`,
      row.endMs === undefined ? "-" : formatDuration(row.endMs - row.startMs),
      row.status,
      String(row.attempts),
      timelineBar(row, totalMs, 40),
    ]);
    this.context.stdout.write(formatTable({ header: ["step", "start", "took", "status", "attempts", "timeline"], rows: table, rightAligned: new Set([1, 2, 4]) }));
  }
}
