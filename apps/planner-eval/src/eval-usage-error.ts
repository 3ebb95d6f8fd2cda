import { LittleWorkflowError } from "@little-stack/workflow";

/** A flag, environment variable or option of the eval command that cannot work (exit code 2). */
export class EvalUsageError extends LittleWorkflowError {
  constructor(message: string) {
    super("planner_eval.usage", message);
  }
}
