import { canonicalJson } from "@little-stack/canonical";
import type { ModelMessage, UserContent } from "ai";
import { listMismatches, type OutputMismatch } from "./output-schema-errors.js";

type TextPart = { type: "text"; text: string };

/**
 * The user message of an ai.generate step: the resolved prompt; then, only when the step declares
 * `input`, `Step input (JSON):` and the step input as canonical JSON (canonical so a resumed run,
 * whose input was rebuilt from stored outputs, sends byte-identical text); then, when the request
 * must say it, the expected answer (`describeExpectedAnswer`). A step without `input` sends no
 * copy of the workflow input: its prompt quotes what the model needs (`{{ input.x }}`).
 */
export function aiGenerateUserContent(options: {
  readonly prompt: string;
  /** `task.step.input !== undefined`: the plan asked for the step input to be sent. */
  readonly inputDeclared: boolean;
  readonly stepInput: unknown;
  readonly expectedAnswer?: string;
}): UserContent {
  const parts: TextPart[] = [{ type: "text", text: options.prompt }];
  if (options.inputDeclared && options.stepInput !== undefined) parts.push({ type: "text", text: `Step input (JSON):\n${canonicalJson(options.stepInput)}` });
  if (options.expectedAnswer !== undefined) parts.push({ type: "text", text: options.expectedAnswer });
  return parts;
}

/**
 * The two messages of the one repair turn: the model's previous answer (left out when it was
 * empty — there is nothing to quote) and a user message naming every mismatch, with paths into
 * what the model wrote, and the expected answer again. Built only from the recorded answer, so a
 * resumed session sends the same repair request.
 */
export function repairTurnMessages(options: {
  readonly previousAnswer: string;
  readonly mismatches: readonly OutputMismatch[];
  readonly expectedAnswer: string;
}): ModelMessage[] {
  const answered = options.previousAnswer.trim().length > 0;
  const text = `Your previous answer does not fit the required answer format: ${listMismatches(options.mismatches)}.\nAnswer again, correcting exactly that. ${options.expectedAnswer}`;
  return [...(answered ? [{ role: "assistant" as const, content: [{ type: "text" as const, text: options.previousAnswer }] }] : []), { role: "user", content: [{ type: "text", text }] }];
}
