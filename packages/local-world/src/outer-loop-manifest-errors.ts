import { LittleWorkflowError } from "@little-stack/canonical";

/** A manifest to write that is not a plain JSON object. */
export class InvalidOuterLoopManifestError extends LittleWorkflowError {
  constructor(outerLoopId: string, problem: string, cause?: unknown) {
    super(
      "world.invalid_outer_loop_manifest",
      `Cannot write the outer-loop manifest "${outerLoopId}": ${problem}. Nothing was written.`,
      { cause, details: { outerLoopId } },
    );
  }
}

/** A stored manifest that does not parse as a JSON object. */
export class OuterLoopManifestCorruptError extends LittleWorkflowError {
  constructor(outerLoopId: string, path: string, cause?: unknown) {
    super(
      "world.outer_loop_manifest_corrupt",
      `The outer-loop manifest "${outerLoopId}" at ${path} is not a JSON object. It was modified outside the world; restore it or delete it to start the outer loop afresh.`,
      { cause, details: { outerLoopId, path } },
    );
  }
}
