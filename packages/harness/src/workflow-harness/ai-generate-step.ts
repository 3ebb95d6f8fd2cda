import { canonicalJson } from "@little-stack/canonical";
import { resolveTemplates, type ExpressionContext, type LwirAiGenerateStep } from "@little-stack/lwir";
import type { UserContent } from "ai";
import { durableGenerateText } from "../agent/durable-generate.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { outputModeMismatches } from "./output-mode-mismatches.js";
import { AiOutputSchemaError } from "./output-schema-errors.js";
import { outputSpecForMode } from "./output-spec-for-mode.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/** A template resolved to prompt text: a whole-template string may yield any JSON value. */
function resolveText(template: string, context: ExpressionContext): string {
  const value = resolveTemplates(template, context);
  return typeof value === "string" ? value : canonicalJson(value);
}

/**
 * The user message of an ai.generate step: the prompt, then the step input as canonical JSON
 * (lwir.md §2: "the step input is sent after the prompt"; canonical so that a resumed run, whose
 * input was rebuilt from stored outputs, sends byte-identical text).
 */
export function aiGenerateUserContent(options: { readonly prompt: string; readonly stepInput: unknown }): UserContent {
  const parts: { type: "text"; text: string }[] = [{ type: "text", text: options.prompt }];
  if (options.stepInput !== undefined) parts.push({ type: "text", text: `Step input (JSON):\n${canonicalJson(options.stepInput)}` });
  return parts;
}

/**
 * ai.generate: exactly one model call, no tools, through the session's recorded model (a
 * recorded response is replayed), with the output mode mapped to `Output.*`; the parsed answer
 * is checked against the step's output mode.
 */
export async function runAiGenerateStep(options: {
  readonly step: LwirAiGenerateStep;
  readonly stepInput: unknown;
  readonly ctx: WorkflowHarnessContext;
  readonly session: HarnessSession;
}): Promise<unknown> {
  const { step, ctx, session } = options;
  const expressions = ctx.expressionContext === undefined ? undefined : { ...ctx.expressionContext, step };
  const prompt = expressions === undefined ? step.with.prompt : resolveText(step.with.prompt, expressions);
  const stepSystem = step.with.system === undefined ? undefined : expressions === undefined ? step.with.system : resolveText(step.with.system, expressions);
  const system = stepSystem ?? ctx.system;
  const result = await durableGenerateText(session, {
    model: ctx.model.model,
    ...(system === undefined ? {} : { system }),
    messages: [{ role: "user", content: aiGenerateUserContent({ prompt, stepInput: options.stepInput }) }],
    output: outputSpecForMode(step.output),
    abortSignal: ctx.abortSignal,
  });
  const output: unknown = step.output.mode === "text" ? result.text : result.output;
  const mismatches = outputModeMismatches(step.output, output);
  if (mismatches.length > 0) throw new AiOutputSchemaError({ stepId: step.id, mismatches });
  return output;
}
