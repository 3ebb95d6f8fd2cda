import { join, resolve } from "node:path";
import { materializeRunState } from "@little-stack/runtime";
import { Command } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { formatTable } from "../inspect/format-table.js";
import { runKindOf, type RunKind, type RunListingStatus } from "../inspect/run-kind.js";
import { runLockIsLive } from "../inspect/run-liveness.js";
import { withReadOnlyWorld } from "../open-world.js";
import { formatDuration } from "../run/progress-printer.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** One line of `little runs`. */
export type RunListing = {
  readonly runId: string;
  /** `run` (a workflow run), `plan` (a compile only: an orchestrator's plan_workflow), `pipeline` (an orchestrator's run). */
  readonly kind: RunKind;
  /**
   * The log's status; `planned` for a plan whose version is locked; `interrupted` when the log says
   * running but no live process holds the run.
   */
  readonly status: Exclude<RunListingStatus, "running"> | "running" | "interrupted";
  /** Steps of a workflow run (0 for plans and pipelines). */
  readonly stepsCompleted: number;
  readonly stepsScheduled: number;
  readonly startedAt: string;
  /** Milliseconds from the first to the last event. */
  readonly durationMs: number;
  readonly eventCount: number;
};

/** `little runs`: one line per run in the data dir, oldest first. */
export class RunsCommand extends Command<CliContext> {
  static override paths = [["runs"]];
  static override usage = Command.Usage({
    description: "List the runs in the data dir",
    details: `
      One line per run, oldest first: id, kind (\`run\`, \`plan\` — an orchestrator's plan_workflow,
      which locks a version and runs nothing — or \`pipeline\` — an orchestrator's own run), status,
      steps completed / scheduled, start time and duration (first to last event). A plan whose
      version is locked is \`planned\`. A run whose log says running but whose process is gone is
      shown as \`interrupted\`: resume it with \`little run … --run-id <id>\`. \`--json\` prints an array.
    `,
    examples: [["List runs", "little runs"], ["Another data dir, as JSON", "little runs --data-dir /tmp/world --json"]],
  });

  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    await withReadOnlyWorld({ dataDir: this.dataDir, cwd: this.context.cwd }, async (world) => {
      const listings: RunListing[] = [];
      for (const summary of await world.listRuns()) {
        const events = await world.listEvents(summary.runId);
        const state = materializeRunState(events, { runId: summary.runId });
        const { kind, status } = runKindOf(events, state);
        const steps = Object.values(state.steps);
        const live = status === "running" && runLockIsLive({ locksDir: join(resolve(this.context.cwd, this.dataDir), "locks"), runId: summary.runId });
        listings.push({
          runId: summary.runId,
          kind,
          status: status === "running" && !live ? "interrupted" : status,
          stepsCompleted: steps.filter((step) => step.status === "completed").length,
          stepsScheduled: steps.length,
          startedAt: summary.firstRecordedAt,
          durationMs: Date.parse(summary.lastRecordedAt) - Date.parse(summary.firstRecordedAt),
          eventCount: summary.eventCount,
        });
      }
      if (this.json) {
        this.context.stdout.write(`${JSON.stringify(listings, null, 2)}\n`);
        return;
      }
      if (listings.length === 0) {
        this.context.stdout.write(`no runs in ${this.dataDir}\n`);
        return;
      }
      const rows = listings.map((run) => [
        run.runId,
        run.kind,
        run.status,
        run.kind === "run" ? `${run.stepsCompleted}/${run.stepsScheduled}` : "-",
        run.startedAt,
        formatDuration(run.durationMs),
      ]);
      this.context.stdout.write(formatTable({ header: ["run", "kind", "status", "steps done", "started", "duration"], rows, rightAligned: new Set([3, 5]) }));
    });
    return exitCodes.success;
  }
}
