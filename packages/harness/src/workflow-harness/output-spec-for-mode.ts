import type { LwirOutputMode } from "@little-stack/lwir";
import { jsonSchema, Output } from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";

type Labels = { name?: string; description?: string };

function labelsOf(mode: LwirOutputMode): Labels {
  return { ...(mode.name === undefined ? {} : { name: mode.name }), ...(mode.description === undefined ? {} : { description: mode.description }) };
}

function asJsonSchema7(schema: unknown): JSONSchema7 {
  // Boolean schemas (true = anything) become the empty schema the providers understand.
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  return schema as JSONSchema7;
}

/**
 * The AI SDK `Output.*` specification of an LWIR output mode: text → `Output.text()`, object →
 * `Output.object({ schema })`, array → `Output.array({ element: schema.items })`, choice →
 * `Output.choice({ options: values })`, json → `Output.json()`. The harness validates the parsed
 * value against the whole LWIR schema afterwards (array bounds, json schemas), so these specs do
 * no validation of their own.
 */
export function outputSpecForMode(mode: LwirOutputMode): Output.Output {
  switch (mode.mode) {
    case "text":
      return Output.text();
    case "object":
      return Output.object({ schema: jsonSchema(asJsonSchema7(mode.schema)), ...labelsOf(mode) });
    case "array": {
      const items = typeof mode.schema === "object" && mode.schema !== null ? (mode.schema as { items?: unknown }).items : undefined;
      return Output.array({ element: jsonSchema(asJsonSchema7(items)), ...labelsOf(mode) });
    }
    case "choice":
      return Output.choice({ options: [...mode.values], ...labelsOf(mode) });
    case "json":
      return Output.json(labelsOf(mode));
  }
}
