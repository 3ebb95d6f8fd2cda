import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { JsonSchema } from "@little-stack/lwir";
import { MockLanguageModelV3 } from "ai/test";
import { createScriptedModel, type ScriptedModel } from "../scripted-model/create-scripted-model.js";
import { defaultScriptedUsage, type ScriptedUsage } from "../scripted-model/scripted-turn.js";
import { sampleFromSchema } from "./sample-from-schema.js";

/** A model that answers every call from what the call asks for (see `createSchemaAnsweringModel`). */
export type SchemaAnsweringModel = MockLanguageModelV3 & {
  /** Calls made so far (generate and stream). */
  readonly callCount: number;
  /** The prompt and settings of each call, in the order the calls arrived. */
  readonly callOptions: readonly LanguageModelV3CallOptions[];
  /** The text answered to each call, same order as `callOptions`. */
  readonly answers: readonly string[];
};

export type SchemaAnsweringModelOptions = {
  readonly provider?: string;
  readonly modelId?: string;
  /** The answer to a call that asks for text (no JSON response format). Default: `defaultTextAnswer`. */
  readonly text?: (call: LanguageModelV3CallOptions) => string;
  readonly usage?: ScriptedUsage;
};

function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    const message = prompt[index]!;
    if (message.role !== "user") continue;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
  }
  return "";
}

/**
 * The text answer for a call: `answer: ` and the first words of its last user message (letters,
 * digits and simple punctuation only, at most 60 characters). It depends only on the call, so
 * concurrent calls and a resumed run get the same answers whatever their order.
 */
export function defaultTextAnswer(call: LanguageModelV3CallOptions): string {
  const words = lastUserText(call.prompt).replace(/[^A-Za-z0-9 ,.:'-]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 60).trim();
  return words.length === 0 ? "answer" : `answer: ${words}`;
}

function answerTo(call: LanguageModelV3CallOptions, text: (call: LanguageModelV3CallOptions) => string): string {
  const format = call.responseFormat;
  if (format?.type !== "json") return text(call);
  // JSON without a schema: any JSON fits.
  if (format.schema === undefined) return "{}";
  return JSON.stringify(sampleFromSchema(format.schema as JsonSchema));
}

/**
 * An AI SDK V3 model (`doGenerate` and `doStream`) that answers each call from the call itself:
 * with `responseFormat: { type: "json", schema }`, the JSON text of `sampleFromSchema(schema)`
 * (with a JSON response format and no schema, `{}`); otherwise a short deterministic text
 * (`defaultTextAnswer`, or `options.text`). It never calls tools. A schema it cannot sample makes
 * the call throw `SchemaSampleError`. Booleans sample as `true` and numbers from their bounds
 * (`sampleFromSchema`), so a plan's loop that repeats while a review is not approved ends after
 * one pass. Calls and answers are recorded; usage is `options.usage` (default 10 in, 5 out).
 */
export function createSchemaAnsweringModel(options: SchemaAnsweringModelOptions = {}): SchemaAnsweringModel {
  const callOptions: LanguageModelV3CallOptions[] = [];
  const answers: string[] = [];
  const text = options.text ?? defaultTextAnswer;
  const usage = options.usage ?? defaultScriptedUsage;
  const provider = options.provider ?? "schema-answers";
  const modelId = options.modelId ?? "schema-answering-model";
  // One scripted turn per call: the scripted model turns it into V3 content, usage and a stream.
  const turnFor = (params: LanguageModelV3CallOptions): ScriptedModel => {
    callOptions.push(params);
    const answer = answerTo(params, text);
    answers.push(answer);
    return createScriptedModel({ script: [{ text: answer, usage }], provider, modelId });
  };
  const model = new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: async (params) => turnFor(params).doGenerate(params),
    doStream: async (params) => turnFor(params).doStream(params),
  });
  Object.defineProperties(model, {
    callCount: { get: () => callOptions.length },
    callOptions: { get: () => callOptions },
    answers: { get: () => answers },
  });
  return model as SchemaAnsweringModel;
}
