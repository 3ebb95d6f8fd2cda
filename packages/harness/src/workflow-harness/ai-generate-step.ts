import { canonicalJson } from "@little-stack/canonical";
import { resolveTemplates, type ExpressionContext, type LwirAiGenerateStep } from "@little-stack/lwir";
import type { ModelMessage } from "ai";
import { durableGenerateText } from "../agent/durable-generate.js";
import type { HarnessSession } from "../agent/harness-session.js";
import { aiGenerateUserContent, repairTurnMessages } from "./ai-generate-messages.js";
import { describeExpectedAnswer } from "./answer-format.js";
import { AiOutputSchemaError } from "./output-schema-errors.js";
import { outputSpecForMode } from "./output-spec-for-mode.js";
import { parseModelAnswer } from "./parse-model-answer.js";
import { schemaSupportOf } from "./schema-support.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/** A template resolved to prompt text: a whole-template string may yield any JSON value. */
function resolveText(template: string, context: ExpressionContext): string {
  const value = resolveTemplates(template, context);
  return typeof value === "string" ? value : canonicalJson(value);
}

/**
 * ai.generate: one model call, no tools, through the session's recorded model (a recorded
 * response is replayed), asking for the output mode as a JSON response format (`outputSpecForMode`).
 * An answer that does not fit the mode (not JSON, wrong envelope, schema mismatch, a choice outside
 * the values) gets exactly one repair turn — a second recorded call in the same session whose
 * messages carry the previous answer and the mismatches — and then fails with
 * `AiOutputSchemaError`.
 */
export async function runAiGenerateStep(options: {
  readonly step: LwirAiGenerateStep;
  readonly stepInput: unknown;
  readonly ctx: WorkflowHarnessContext;
  readonly session: HarnessSession;
}): Promise<unknown> {
  const { step, ctx, session } = options;
  const expressions = ctx.expressionContext === undefined ? undefined : Object.assign({}, ctx.expressionContext, { step });
  const prompt = expressions === undefined ? step.with.prompt : resolveText(step.with.prompt, expressions);
  const stepSystem = step.with.system === undefined ? undefined : expressions === undefined ? step.with.system : resolveText(step.with.system, expressions);
  const system = stepSystem ?? ctx.system;
  const spec = outputSpecForMode(step.output, schemaSupportOf(ctx.model.model));
  const expectedAnswer = step.output.mode === "text" ? undefined : describeExpectedAnswer(step.output);
  const messages: ModelMessage[] = [
    {
      role: "user",
      content: aiGenerateUserContent({
        prompt,
        inputDeclared: step.input !== undefined,
        stepInput: options.stepInput,
        ...(spec.stateAnswer && expectedAnswer !== undefined ? { expectedAnswer } : {}),
      }),
    },
  ];
  const answerTo = async (conversation: ModelMessage[]): Promise<string> => {
    const result = await durableGenerateText(session, {
      model: ctx.model.model,
      ...(system === undefined ? {} : { system }),
      messages: conversation,
      output: spec.output,
      ...(spec.providerOptions === undefined ? {} : { providerOptions: spec.providerOptions }),
      abortSignal: ctx.abortSignal,
    });
    return result.text;
  };
  const firstAnswer = await answerTo(messages);
  const first = parseModelAnswer(step.output, firstAnswer);
  if (first.ok) return first.output;
  // Text mode never gets here: any text is a text answer.
  const repair = repairTurnMessages({ previousAnswer: firstAnswer, mismatches: first.answerMismatches, expectedAnswer: expectedAnswer ?? "" });
  const second = parseModelAnswer(step.output, await answerTo([...messages, ...repair]));
  if (second.ok) return second.output;
  throw new AiOutputSchemaError({ stepId: step.id, mismatches: second.mismatches, repairTurns: 1 });
}
