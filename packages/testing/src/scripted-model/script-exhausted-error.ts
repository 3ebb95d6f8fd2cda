import { LittleWorkflowError } from "@little-stack/canonical";

/** A scripted model or loopback server got one request more than its script has turns. */
export class ScriptExhaustedError extends LittleWorkflowError {
  constructor(options: { readonly source: string; readonly turns: number }) {
    super(
      "testing.script_exhausted",
      `${options.source} was called ${options.turns + 1} times but its script has ${options.turns} turns: the code under test made a call it should not have (a repeated call on replay?), or the script is too short.`,
      { details: { ...options } },
    );
  }
}

/** A scripted turn that fails on purpose. */
export class ScriptedModelError extends LittleWorkflowError {
  constructor(message: string) {
    super("testing.scripted_model_error", message);
  }
}
