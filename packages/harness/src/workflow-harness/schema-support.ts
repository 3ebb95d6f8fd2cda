import type { LanguageModelV3 } from "@ai-sdk/provider";

/**
 * How a model takes a JSON answer schema:
 * - `enforced` — sent as `json_schema` with strict decoding; the schema need not be stated in the
 *   prompt.
 * - `ignored` — the provider drops the schema and asks only for JSON (`json_object`): the schema is
 *   not sent (it would only raise an AI SDK warning) and the prompt states the expected answer.
 * - `unknown` — the schema is sent, and the prompt states it too (harmless when enforced).
 */
export type SchemaSupport = "enforced" | "ignored" | "unknown";

/**
 * Facts from the installed providers (@ai-sdk/openai-compatible 2.0.92, @ai-sdk/openai 3.0.141):
 * an openai-compatible chat model has a public `supportsStructuredOutputs` (default false → it
 * sends `response_format: { type: "json_object" }` and drops the schema; true → `json_schema` with
 * `strict` from the `strictJsonSchema` provider option, default true). `@ai-sdk/openai` models
 * (`openai(...)` is the Responses API, provider "openai.responses"; `openai.chat(...)` is
 * "openai.chat") always send a schema as `json_schema`, strict by default, and have no such
 * property. Other providers are `unknown` — the harness states the answer rather than guess.
 */
export function schemaSupportOf(model: LanguageModelV3): SchemaSupport {
  const declared = (model as { readonly supportsStructuredOutputs?: unknown }).supportsStructuredOutputs;
  if (typeof declared === "boolean") return declared ? "enforced" : "ignored";
  if (model.provider === "openai.chat" || model.provider === "openai.responses") return "enforced";
  return "unknown";
}
