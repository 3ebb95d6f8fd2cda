import { join, resolve } from "node:path";
import { LittleWorkflowError } from "@little-stack/canonical";
import type { LocalWorld } from "@little-stack/local-world";
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
  /**
   * `run` (a workflow run), `plan` (a compile only: an orchestrator's plan_workflow), `pipeline`
   * (an orchestrator's run); `unknown` for a damaged run whose events cannot be read.
   */
  readonly kind: RunKind | "unknown";
  /**
   * The log's status; `planned` for a plan whose version is locked; `interrupted` when the log says
   * running but no live process holds the run; `damaged` when its log is corrupt or lost committed
   * events (`problem` says what; `little events <id>` prints the whole error).
   */
  readonly status: Exclude<RunListingStatus, "running"> | "running" | "interrupted" | "damaged";
  /** For a damaged run: the error reading it (code and first words). */
  readonly problem?: string;
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
      const { materializeRunState } = await import("@little-stack/runtime/run-state");
      const listings: RunListing[] = [];
      const summaries = await world.listRuns();
      for (const summary of summaries) {
        let events: Awaited<ReturnType<LocalWorld["listEvents"]>>;
        try {
          events = await world.listEvents(summary.runId);
        } catch (error) {
          if (!isDamage(error)) throw error;
          listings.push(damagedListing({ runId: summary.runId, error, startedAt: summary.firstRecordedAt, eventCount: summary.eventCount }));
          continue;
        }
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
      // Runs whose commit record survives but whose events the log lost entirely.
      const listed = new Set(summaries.map((summary) => summary.runId));
      for (const runId of await world.recordedRunIds()) {
        if (listed.has(runId)) continue;
        const error = await world.listEvents(runId).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (error === undefined) continue;
        if (!isDamage(error)) throw error;
        listings.push(damagedListing({ runId, error, startedAt: "", eventCount: 0 }));
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
        run.kind === "run" && run.status !== "damaged" ? `${run.stepsCompleted}/${run.stepsScheduled}` : "-",
        run.startedAt === "" ? "-" : run.startedAt,
        run.status === "damaged" ? "-" : formatDuration(run.durationMs),
      ]);
      this.context.stdout.write(formatTable({ header: ["run", "kind", "status", "steps done", "started", "duration"], rows, rightAligned: new Set([3, 5]) }));
      const damaged = listings.filter((run) => run.status === "damaged");
      if (damaged.length > 0) {
        this.context.stdout.write(`${damaged.length} damaged run${damaged.length === 1 ? "" : "s"}: "little events <run>" says what is wrong and how to recover\n`);
      }
    });
    return exitCodes.success;
  }
}

/** Errors that mean the run's stored history is damaged (as opposed to the command failing). */
function isDamage(error: unknown): error is LittleWorkflowError {
  return LittleWorkflowError.is(error, "world.event_log_corrupt") || LittleWorkflowError.is(error, "world.event_log_gap");
}

function damagedListing(options: { runId: string; error: LittleWorkflowError; startedAt: string; eventCount: number }): RunListing {
  return {
    runId: options.runId,
    kind: "unknown",
    status: "damaged",
    problem: `${options.error.code}: ${options.error.message.slice(0, 300)}`,
    stepsCompleted: 0,
    stepsScheduled: 0,
    startedAt: options.startedAt,
    durationMs: 0,
    eventCount: options.eventCount,
  };
}
