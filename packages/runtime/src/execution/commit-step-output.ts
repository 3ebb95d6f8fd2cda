import { sha256DigestOfBytes } from "@little-stack/canonical";
import type { LwirStep } from "@little-stack/lwir";
import { inlineOutputLimit, type RuntimeEvent, type StepErrorPayload } from "../events/runtime-event-types.js";
import { checkStepOutput } from "./output-validation.js";
import type { RunContext } from "./run-context.js";
import { StepFailure } from "./step-failure.js";

/** What a derived output commits (see `derived`): its artifact, when not inline, is already on disk. */
const derivedResultTypes: ReadonlySet<string> = new Set(["ArtifactCreated", "StepCompleted"]);

export type CommittedOutput = {
  readonly stepPath: string;
  readonly output: unknown;
  readonly outputRef: string;
  readonly artifactRefs: readonly string[];
};

/**
 * Validates an output against the step's output mode and commits it: the artifact first (when
 * the canonical JSON is over 256,000 characters), then `ArtifactCreated` and `StepCompleted` in
 * one batch. An invalid output is recorded as a terminal `step_schema_error` and thrown.
 * (`StepOutputValidated` is no longer written: everything it said — mode, schema hash, attempt —
 * is in `StepCompleted.metadata`, which only a validated output reaches.)
 */
export async function commitStepOutput(options: {
  readonly run: RunContext;
  readonly step: LwirStep;
  readonly stepPath: string;
  readonly attempt: number;
  readonly output: unknown;
  readonly artifactRefs: readonly string[];
  readonly fixedSource?: string;
  /**
   * The output is derived from results already committed (a parallel group's fan-in of its
   * branches' committed outputs): its events may wait for the run's next boundary, like an
   * announcement. A kill before that commit loses only what a resume derives again, identically.
   */
  readonly derived?: boolean;
}): Promise<CommittedOutput> {
  const { run, step, stepPath, attempt, output } = options;
  const check = checkStepOutput(step, output);
  if (!check.valid) {
    const error: StepErrorPayload = {
      name: "StepOutputSchemaError",
      message: `The output of step ${stepPath} does not match its output mode "${check.outputMode}": ${check.problem}.`,
      causeCode: "step_schema_error",
      retriable: false,
    };
    await run.log.append([
      { type: "StepFailed", payload: { stepPath, stepId: step.id, attempt, error, ...(options.fixedSource === undefined ? {} : { fixedSource: options.fixedSource }) } },
    ]);
    throw new StepFailure("step_schema_error", stepPath, error);
  }
  const events: RuntimeEvent[] = [];
  let outputRef: string;
  const inline = check.canonical.length <= inlineOutputLimit;
  if (inline) {
    outputRef = sha256DigestOfBytes(check.canonical);
  } else {
    const artifact = await run.world.writeArtifact({ runId: run.runId, stepPath, name: "output.json", json: output });
    outputRef = artifact.id;
    events.push({ type: "ArtifactCreated", payload: { stepPath, artifact } });
  }
  const usage = run.log.folder.step(stepPath)?.usage;
  const withUsage = usage !== undefined && usage.pricedCalls + usage.unpricedCalls > 0;
  events.push({
    type: "StepCompleted",
    payload: {
      stepPath,
      stepId: step.id,
      attempt,
      ...(inline ? { output } : {}),
      outputRef,
      artifactRefs: options.artifactRefs,
      metadata: {
        uses: step.uses,
        outputMode: check.outputMode,
        schemaHash: check.schemaHash,
        // Tokens only: cost is derived when state is materialized, never stored.
        ...(withUsage
          ? { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedInputTokens: usage.cachedInputTokens, reasoningTokens: usage.reasoningTokens } }
          : {}),
      },
      ...(options.fixedSource === undefined ? {} : { fixedSource: options.fixedSource }),
    },
  });
  await (options.derived === true ? run.log.appendAny(events, { hold: derivedResultTypes }) : run.log.append(events));
  return { stepPath, output, outputRef, artifactRefs: options.artifactRefs };
}

/** The committed output of a completed step path, read back (from its artifact when not inline). */
export async function recordedOutput(run: RunContext, stepPath: string): Promise<CommittedOutput | undefined> {
  const state = run.log.folder.step(stepPath);
  if (state === undefined || state.status !== "completed" || state.outputRef === undefined) return undefined;
  // readArtifactJson re-hashes the bytes: a tampered artifact throws ArtifactIntegrityError here.
  const output = state.outputInline === false ? await run.world.readArtifactJson(state.outputRef) : state.output;
  return { stepPath, output, outputRef: state.outputRef, artifactRefs: state.artifactRefs };
}
