import { replayRun } from "@little-stack/runtime";
import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { formatTable } from "../inspect/format-table.js";
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
    `,
    examples: [
      ["Cost of a run", "little report run_0123456789abcdef"],
      ["As JSON", "little report run_0123456789abcdef --json"],
    ],
  });

  runId = Option.String({ name: "runId" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      await requireKnownRun({ world, runId: this.runId, dataDir: this.dataDir });
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
}
