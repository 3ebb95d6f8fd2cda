import { LittleWorkflowError } from "@little-stack/canonical";

/** `createBashTool` was given unusable options (mounts, skills, cwd, limits). */
export class BashToolConfigError extends LittleWorkflowError {
  constructor(message: string, options: { readonly cause?: unknown } = {}) {
    super("harness.bash_config_invalid", message, options);
  }
}
