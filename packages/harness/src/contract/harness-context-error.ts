import { LittleWorkflowError } from "@little-stack/canonical";

/** A harness was handed a context without something the task needs (its manifest, above all). */
export class HarnessContextError extends LittleWorkflowError {
  constructor(options: { readonly task: string; readonly missing: string; readonly hint: string }) {
    super("harness.context_incomplete", `The harness cannot run a ${options.task} task: the context has no ${options.missing}. ${options.hint}`, {
      details: { ...options },
    });
  }
}
