import { LittleWorkflowError } from "./little-workflow-error.js";

/** A value that is not plain JSON was given to the canonicalizer. `path` points at it. */
export class CanonicalJsonError extends LittleWorkflowError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super("canonical.not_json", `Value at ${path} is not plain JSON: ${problem}.`, {
      details: { path },
    });
    this.path = path;
  }
}
