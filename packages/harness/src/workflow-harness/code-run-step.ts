import type { LwirCodeRunStep } from "@little-stack/lwir";
import type { SandboxLimits } from "@little-stack/sandbox";
import type { HarnessSession } from "../agent/harness-session.js";
import { allowedToolNames, pickTools } from "./allowed-tools.js";
import { runCodeInSandbox } from "./run-code-in-sandbox.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/**
 * code.run: the step's files (hash-checked by the sandbox) run in a fresh QuickJS/WASM
 * instance; the code reaches permissions.tools ∩ ctx.tools, each call recorded with caller
 * "code"; the output must match the step's output mode.
 */
export async function runCodeRunStep(options: {
  readonly step: LwirCodeRunStep;
  readonly stepInput: unknown;
  readonly stepPath: string;
  readonly ctx: WorkflowHarnessContext;
  readonly session: HarnessSession;
  readonly limits?: Partial<SandboxLimits>;
}): Promise<unknown> {
  const { step, ctx } = options;
  return runCodeInSandbox({
    session: options.session,
    stepId: step.id,
    stepPath: options.stepPath,
    files: step.with.files,
    entrypoint: step.with.entrypoint,
    input: options.stepInput,
    outputMode: step.output,
    tools: pickTools(ctx.tools, allowedToolNames(ctx)),
    abortSignal: ctx.abortSignal,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
}
