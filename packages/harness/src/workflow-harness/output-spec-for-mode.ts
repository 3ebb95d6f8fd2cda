import type { JSONSchema7, LanguageModelV3CallOptions, SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { LwirOutputMode } from "@little-stack/lwir";
import { Output } from "ai";
import { answerFormatFor } from "./answer-format.js";
import type { SchemaSupport } from "./schema-support.js";
import { strictOutputSchema } from "./strict-output-schema.js";

/** How an ai.generate request asks for its output mode. */
export type OutputSpec = {
  /**
   * The AI SDK output: its `responseFormat` goes to the provider; it hands the answer back as raw
   * text (`result.text`), which `parseModelAnswer` reads — so a malformed answer is a mismatch the
   * harness can repair, not an AI SDK `NoObjectGeneratedError`.
   */
  readonly output: Output.Output<string, string, never>;
  /** Whether the request must state the expected answer in words (`describeExpectedAnswer`). */
  readonly stateAnswer: boolean;
  /** Set when the schema cannot be strict: asks the OpenAI providers for non-strict decoding. */
  readonly providerOptions?: SharedV3ProviderOptions;
};

type ResponseFormat = NonNullable<LanguageModelV3CallOptions["responseFormat"]>;

// The provider option both @ai-sdk/openai ("openai") and @ai-sdk/openai-compatible
// ("openaiCompatible") read for json_schema's `strict` (default true).
const nonStrict: SharedV3ProviderOptions = { openai: { strictJsonSchema: false }, openaiCompatible: { strictJsonSchema: false } };

/**
 * The output spec of an LWIR output mode. text → `Output.text()`. The other modes → a JSON
 * response format whose schema is the answer format's (`answerFormatFor`: object as is, array in
 * `{ elements }`, choice and non-object json in `{ result }`) made strict (`strictOutputSchema`),
 * with the mode's name/description. Per `support`: `ignored` sends no schema (the provider would
 * drop it) and states the answer; `unknown` sends it and states it; `enforced` sends it and states
 * it only when the schema could not be made strict (then decoding is non-strict, so advisory).
 * json without a schema always states it: the provider can only ask for "JSON", and OpenAI's
 * `json_object` mode refuses a request whose messages never say JSON.
 */
export function outputSpecForMode(mode: LwirOutputMode, support: SchemaSupport = "unknown"): OutputSpec {
  if (mode.mode === "text") return { output: Output.text(), stateAnswer: false };
  const labels = { ...(mode.name === undefined ? {} : { name: mode.name }), ...(mode.description === undefined ? {} : { description: mode.description }) };
  const { schema } = answerFormatFor(mode);
  if (schema === undefined || support === "ignored") return { output: answerText({ type: "json", ...labels }), stateAnswer: true };
  const provider = strictOutputSchema(schema);
  return {
    output: answerText({ type: "json", schema: provider.schema as JSONSchema7, ...labels }),
    stateAnswer: support === "unknown" || !provider.strict,
    ...(provider.strict ? {} : { providerOptions: nonStrict }),
  };
}

function answerText(responseFormat: ResponseFormat): Output.Output<string, string, never> {
  return {
    name: "answer-text",
    responseFormat: Promise.resolve(responseFormat),
    parseCompleteOutput: ({ text }) => Promise.resolve(text),
    parsePartialOutput: ({ text }) => Promise.resolve({ partial: text }),
    createElementStreamTransform: () => undefined,
  };
}
