import type { RunState } from "@little-stack/runtime";
import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { CliUsageError } from "../cli-errors.js";
import { exitCodes } from "../exit-codes.js";
import { type ProgressMode, progressModes } from "../run/progress-printer.js";
import type { RunSummary } from "../run/run-summary.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little run <workflow.json> --input <file|->`: executes (or resumes) a run of an LWIR document. */
export class RunCommand extends Command<CliContext> {
  static override paths = [["run"]];
  static override usage = Command.Usage({
    description: "Run an LWIR document durably, or resume a run",
    details: `
      Locks the LWIR as a workflow version and executes it in the local world with the default
      workflowHarness. Progress goes to stderr, chosen by \`--progress\`: \`live\` (the default on a
      terminal: a line per step, coalesced when steps go by faster than a person reads), \`steps\`
      (the default otherwise: at most one line per step boundary), \`events\` (every event of the
      run as one JSON line: the complete machine-readable stream) or \`none\`. The summary \`{ runId, workflowVersionId, status, output | error, usage, eventCount }\`
      goes to stdout as JSON.

      Re-running with the same \`--run-id\` resumes that run: completed steps are reused and recorded
      model and tool calls are replayed, never made again. A completed run just prints its summary.

      \`--models\` maps model slots to providers:
      \`{ "<slot>": { "provider": "openai" | "openai-compatible", "model": "<id>", "baseURL"?: "…", "apiKeyEnv"?: "ENV" } }\`.
      \`--tools\` is an ES module exporting \`tools\` (or default): AI SDK tool()s or a tool registry.

      Exit code 0 when the run completed, 1 when it failed (or the LWIR is invalid, or the run is
      locked by a live process), 2 for usage and input errors.
    `,
    examples: [
      ["Run a workflow", "little run plan.lwir.json --input input.json --models models.json"],
      ["Resume a run after a crash", "little run plan.lwir.json --input input.json --models models.json --run-id run_0123456789abcdef"],
      ["Input from standard input", "echo '{\"ticketId\":\"T-1\",\"transcript\":\"…\"}' | little run plan.lwir.json --input - --models models.json"],
    ],
  });

  workflow = Option.String({ name: "workflow.json" });
  input = Option.String("--input", { description: "JSON input file (`-` for standard input); required" });
  runId = Option.String("--run-id", { description: "Run id: new runs get this id, an unfinished run with it is resumed" });
  models = Option.String("--models", { description: "JSON file mapping model slots to providers" });
  tools = Option.String("--tools", { description: "ES module exporting the tools the workflow uses" });
  progress = Option.String("--progress", { description: "live | steps | events | none (default: live on a terminal, steps otherwise)" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    const { cwd, stdin, env, stderr, stdout } = this.context;
    // Checked here rather than by clipanion, whose message for a missing required option is "Command not found".
    if (this.input === undefined) throw new CliUsageError('little run needs --input <file|-> (the workflow input as JSON) — e.g. little run plan.lwir.json --input input.json');
    const mode = this.#progressMode();
    // What a run needs is loaded when it runs, not when `little` starts (see the README § startup).
    const [{ sha256Digest }, { workflowHarness }, { registerWorkflowVersion }, { executeWorkflowVersion, RunFailedError, materializeRunState }, { openWorldForWriting, withWorld }, { prepareRun }, { ProgressPrinter }, { summaryOfCompletedRun, summaryOfFailedRun }] =
      await Promise.all([
        import("@little-stack/canonical"),
        import("@little-stack/harness"),
        import("@little-stack/lwir"),
        import("@little-stack/runtime"),
        import("../open-world.js"),
        import("../run/prepare-run.js"),
        import("../run/progress-printer.js"),
        import("../run/run-summary.js"),
      ]);
    const prepared = await prepareRun({
      workflowPath: this.workflow,
      inputPath: this.input,
      modelsPath: this.models,
      toolsPath: this.tools,
      cwd,
      stdin,
      env,
    });
    const version = registerWorkflowVersion(prepared.lwir);
    const progress = new ProgressPrinter({ write: (text) => stderr.write(text), mode });
    const summary = await withWorld(await openWorldForWriting({ dataDir: this.dataDir, cwd }), async (localWorld): Promise<RunSummary> => {
      if (this.runId !== undefined && mode !== "events" && mode !== "none") {
        const recorded = await localWorld.listEvents(this.runId);
        const state = recorded.length === 0 ? undefined : materializeRunState(recorded);
        // A different workflow or input for this id is refused by the runtime: no "resuming" line then.
        const sameRun = state !== undefined && state.workflowVersionId === version.id && sha256Digest(state.input ?? null) === sha256Digest(prepared.input ?? null);
        if (sameRun) progress.resuming({ runId: this.runId, eventCount: recorded.length, completedSteps: completedSteps(state) });
      }
      try {
        const result = await executeWorkflowVersion({
          world: localWorld,
          // Progress shows what this invocation commits; what a resumed run had is summed up above
          // (the events mode prints those too: it is the run's whole stream).
          ...(mode === "none"
            ? {}
            : {
                onEvent: (event) => {
                  if (!event.ephemeral && (mode === "events" || !event.replayed)) progress.events([event]);
                },
              }),
          workflowVersion: version,
          input: prepared.input,
          ...(this.runId === undefined ? {} : { runId: this.runId }),
          tools: prepared.tools,
          models: prepared.models,
          workerHarness: workflowHarness,
        });
        return summaryOfCompletedRun(result, (await localWorld.getRun(result.runId))?.eventCount ?? 0);
      } catch (error) {
        if (error instanceof RunFailedError && error.result !== undefined) return summaryOfFailedRun(error.result, (await localWorld.getRun(error.result.runId))?.eventCount ?? 0);
        throw error;
      } finally {
        progress.flush();
      }
    });
    stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return summary.status === "completed" ? exitCodes.success : exitCodes.failure;
  }

  #progressMode(): ProgressMode {
    if (this.progress === undefined) return (this.context.stderr as { isTTY?: boolean }).isTTY === true ? "live" : "steps";
    const mode = progressModes.find((candidate) => candidate === this.progress);
    if (mode === undefined) throw new CliUsageError(`--progress ${JSON.stringify(this.progress)} is not a progress mode — use one of ${progressModes.join(", ")}`);
    return mode;
  }
}

function completedSteps(state: RunState): string[] {
  return Object.values(state.steps)
    .filter((step) => step.status === "completed")
    .map((step) => step.stepPath);
}
