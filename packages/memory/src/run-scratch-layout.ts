import { join } from "node:path";
import { checkDataDir, requireStoreName } from "./store-layout.js";
import { encodeStepPathDirectory } from "./step-path-directory.js";

/**
 * Host paths of one run's scratch hierarchy.
 *
 * ```
 * <dataDir>/runs/<runId>/scratch                                   top-level run
 * <dataDir>/runs/<pipelineRunId>/scratch                           orchestrator of a pipeline
 * <dataDir>/runs/<pipelineRunId>/sub-runs/<runId>/scratch          a run inside that pipeline
 * <runDir>/steps/<encoded step path>/scratch                        one step of the run
 * ```
 */
export type RunScratchLayout = {
  readonly runId: string;
  readonly pipelineRunId?: string;
  /** `runs/<runId>` or `runs/<pipelineRunId>/sub-runs/<runId>`. */
  readonly runDir: string;
  /** The run's own scratch (the planner's `/mnt/scratch/own`). */
  readonly scratch: string;
  /** The pipeline's scratch (the orchestrator's own), when the run is a sub-run. */
  readonly pipelineScratch?: string;
  stepScratch(stepPath: string): string;
};

export function runScratchLayout(options: {
  readonly dataDir: string;
  readonly runId: string;
  /** The orchestrator's run id when this run is a sub-run of a pipeline. */
  readonly pipelineRunId?: string;
}): RunScratchLayout {
  const runs = join(checkDataDir(options.dataDir), "runs");
  const runId = requireStoreName("run id", options.runId);
  if (options.pipelineRunId === undefined) {
    const runDir = join(runs, runId);
    return {
      runId,
      runDir,
      scratch: join(runDir, "scratch"),
      stepScratch: (stepPath) => join(runDir, "steps", encodeStepPathDirectory(stepPath), "scratch"),
    };
  }
  const pipelineRunId = requireStoreName("pipeline run id", options.pipelineRunId);
  const pipelineDir = join(runs, pipelineRunId);
  const runDir = join(pipelineDir, "sub-runs", runId);
  return {
    runId,
    pipelineRunId,
    runDir,
    scratch: join(runDir, "scratch"),
    pipelineScratch: join(pipelineDir, "scratch"),
    stepScratch: (stepPath) => join(runDir, "steps", encodeStepPathDirectory(stepPath), "scratch"),
  };
}

/** The orchestrator's own scratch: `<dataDir>/runs/<pipelineRunId>/scratch`. */
export function pipelineScratchPath(options: { readonly dataDir: string; readonly pipelineRunId: string }): string {
  return join(checkDataDir(options.dataDir), "runs", requireStoreName("pipeline run id", options.pipelineRunId), "scratch");
}
