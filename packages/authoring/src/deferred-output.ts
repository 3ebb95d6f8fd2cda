import { LittleWorkflowError } from "@little-stack/canonical";
import { isAiSdkOutput, normalizeOutputModeAsync, type AiSdkOutputLike, type LwirOutputMode } from "@little-stack/lwir";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

/**
 * AI SDK `Output.object/array/choice(…)` keep their JSON schema behind a promise (ai 6), so a
 * definition that uses one learns its output mode a microtask after `defineWorkflow` returns.
 * Such a definition carries `output` and `outputSchema` as getters over this settlement; every
 * async entry point (`compileWorkflow`, `runWorkflow`, `runOrchestration`, …) awaits
 * `workflowDefinitionReady` first, and a synchronous read before that throws
 * `definition.output_pending` instead of handing out a wrong schema.
 */
export type DeferredOutput = {
  /** The settled mode, or the definition error it settled to; undefined while pending. */
  readonly current: () => { readonly output: LwirOutputMode; readonly outputSchema: unknown } | WorkflowDefinitionError | undefined;
  readonly settled: Promise<void>;
};

const pendingDefinitions = new WeakMap<object, Promise<void>>();

/** True for an AI SDK Output whose schema resolves asynchronously. */
export function isDeferredOutputSpec(value: unknown): value is AiSdkOutputLike {
  return isAiSdkOutput(value) && value.name !== "text" && value.name !== "json";
}

/**
 * Starts settling an AI SDK Output spec. `finish` turns the resolved mode into the definition's
 * fields (checking it against a fixed plan, say) and may throw a `WorkflowDefinitionError`.
 */
export function deferOutput(options: {
  readonly spec: AiSdkOutputLike;
  readonly finish: (output: LwirOutputMode) => { readonly output: LwirOutputMode; readonly outputSchema: unknown };
  readonly failure: (error: unknown) => WorkflowDefinitionError;
}): DeferredOutput {
  let state: { readonly output: LwirOutputMode; readonly outputSchema: unknown } | WorkflowDefinitionError | undefined;
  const settled = normalizeOutputModeAsync(options.spec).then(
    (output) => {
      try {
        state = options.finish(output);
      } catch (error) {
        state = WorkflowDefinitionError.is(error) ? error : options.failure(error);
      }
    },
    (error: unknown) => {
      state = LittleWorkflowError.is(error) || error instanceof Error ? options.failure(error) : options.failure(new Error(String(error)));
    },
  );
  return { current: () => state, settled };
}

/** Remembers that `definition` settles with `deferred` (see `workflowDefinitionReady`). */
export function registerDeferredDefinition(definition: object, deferred: DeferredOutput): void {
  pendingDefinitions.set(definition, deferred.settled);
}

/**
 * Resolves once the definition's output is known (at once for every definition whose output is
 * not an AI SDK `Output.object/array/choice`), and rejects with the `WorkflowDefinitionError` its
 * output settled to. Entry points call it before reading `output` or `outputSchema`.
 */
export async function workflowDefinitionReady<W extends WorkflowDefinition<any, any>>(definition: W): Promise<W> {
  const settled = pendingDefinitions.get(definition);
  if (settled === undefined) return definition;
  await settled;
  // The getters throw the settled error, if any.
  void definition.output;
  return definition;
}
