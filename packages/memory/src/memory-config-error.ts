import { LittleWorkflowError } from "@little-stack/canonical";

/**
 * A workflow's `memory` option is malformed. `path` names the offending field
 * (`memory.workflow`, `memory.attach[1]`, …).
 */
export class MemoryConfigError extends LittleWorkflowError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super(
      "memory.invalid_config",
      `Invalid memory config at ${path}: ${problem}. Fix the workflow's \`memory\` option.`,
      { details: { path } },
    );
    this.path = path;
  }
}
