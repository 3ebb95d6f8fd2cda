import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * A name that must become a directory under the data dir (workflow id, run id, pipeline key, step
 * path) or a layout input (data dir, pipeline hashes, role options) is unusable.
 */
export class MemoryLayoutError extends LittleWorkflowError {
  readonly field: string;

  constructor(field: string, problem: string) {
    super("memory.invalid_layout_input", `Invalid ${field}: ${problem}.`, { details: { field } });
    this.field = field;
  }
}
