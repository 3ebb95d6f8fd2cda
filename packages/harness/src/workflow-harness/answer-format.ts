import { canonicalJson } from "@little-stack/canonical";
import type { JsonSchemaObject, LwirOutputMode } from "@little-stack/lwir";

/**
 * What a model writes for a structured output mode. Strict structured outputs need an object at the
 * top, so arrays and single values travel in a one-key object — the same envelopes as the AI SDK's
 * `Output.array` (`{ "elements": [...] }`) and `Output.choice` (`{ "result": "<value>" }`); the
 * step output is the value under that key.
 */
export type AnswerFormat = {
  /** The key the output is wrapped in, or undefined when the answer is the output itself. */
  readonly envelope: "elements" | "result" | undefined;
  /** The JSON Schema of the whole answer, envelope included; undefined for json without a schema. */
  readonly schema: JsonSchemaObject | undefined;
};

/** The answer format of a structured output mode (text mode has none: any text is the answer). */
export function answerFormatFor(mode: Exclude<LwirOutputMode, { mode: "text" }>): AnswerFormat {
  switch (mode.mode) {
    case "object":
      return isObjectRoot(mode.schema) ? { envelope: undefined, schema: mode.schema } : wrapped("result", mode.schema);
    case "array":
      return wrapped("elements", mode.schema);
    case "choice":
      return wrapped("result", { type: "string", enum: [...mode.values] });
    case "json":
      if (mode.schema === undefined) return { envelope: undefined, schema: undefined };
      return isObjectRoot(mode.schema) ? { envelope: undefined, schema: mode.schema } : wrapped("result", mode.schema);
  }
}

function isObjectRoot(schema: unknown): schema is JsonSchemaObject {
  return typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "object";
}

function wrapped(envelope: "elements" | "result", inner: unknown): AnswerFormat {
  return {
    envelope,
    schema: { type: "object", properties: { [envelope]: inner ?? true }, required: [envelope], additionalProperties: false },
  };
}

const only = "and nothing else (no prose, no code fence)";

/**
 * The exact answer a mode expects, in words, for the request itself: sent when the provider cannot
 * be relied on to enforce the schema, and in every repair turn. For choice it names the allowed
 * values and the JSON form; otherwise it gives the JSON Schema (canonical, so a resumed run sends
 * the same text).
 */
export function describeExpectedAnswer(mode: Exclude<LwirOutputMode, { mode: "text" }>): string {
  const about = mode.description === undefined ? "" : `The answer${mode.name === undefined ? "" : ` (${mode.name})`}: ${mode.description}\n`;
  switch (mode.mode) {
    case "choice": {
      const values = mode.values.map((value) => JSON.stringify(value)).join(", ");
      const example = canonicalJson({ result: mode.values[0] ?? "" });
      return `${about}Answer with one JSON object of the form {"result": "<value>"} ${only}, where <value> is exactly one of: ${values}. For example: ${example}`;
    }
    case "array":
      return `${about}Answer with one JSON object of the form {"elements": [...]} ${only}. "elements" is the answer array; it must match this JSON Schema:\n${canonicalJson(mode.schema)}`;
    case "object":
    case "json": {
      if (mode.schema === undefined) return `${about}Answer with one JSON value ${only}.`;
      const format = answerFormatFor(mode);
      if (format.envelope === undefined) return `${about}Answer with one JSON object ${only}. It must match this JSON Schema:\n${canonicalJson(mode.schema)}`;
      return `${about}Answer with one JSON object of the form {"result": <value>} ${only}, where <value> must match this JSON Schema:\n${canonicalJson(mode.schema)}`;
    }
  }
}
