import { LittleWorkflowError } from "@little-stack/canonical";

/** A bad option passed to `executeWorkflowVersion` (caught before anything is written). */
export class InvalidRunOptionsError extends LittleWorkflowError {
  constructor(option: string, problem: string) {
    super("runtime.invalid_run_options", `executeWorkflowVersion option "${option}" ${problem}.`, { details: { option } });
  }
}

/** A step needs a model slot that `models` does not provide. */
export class MissingModelSlotError extends LittleWorkflowError {
  constructor(options: { readonly slotId: string; readonly stepPath: string; readonly available: readonly string[] }) {
    super(
      "runtime.missing_model_slot",
      `Step ${options.stepPath} uses model slot "${options.slotId}" but models has ${options.available.length === 0 ? "no slots" : `only ${options.available.map((slot) => `"${slot}"`).join(", ")}`}. Pass models: { "${options.slotId}": <an AI SDK language model> }.`,
      { details: { ...options } },
    );
  }
}

/** Steps are left but none can run (an LWIR the validator should have rejected). */
export class SchedulingDeadlockError extends LittleWorkflowError {
  constructor(options: { readonly scope: string; readonly waiting: readonly string[] }) {
    super(
      "runtime.scheduling_deadlock",
      `No step of ${options.scope} can run but ${options.waiting.join(", ")} ${options.waiting.length === 1 ? "has" : "have"} not run: their needs can never complete. Check the needs and decision edges of these steps.`,
      { details: { ...options } },
    );
  }
}
