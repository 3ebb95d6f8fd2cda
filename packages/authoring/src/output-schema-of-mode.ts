import type { JsonSchema, LwirOutputMode } from "@little-stack/lwir";

/**
 * The JSON Schema an LWIR's `output.schema` must have for a requested output mode: the mode's
 * schema; `{ type: "string" }` for text; a string enum for choice; `true` for json without one.
 */
export function outputSchemaOfMode(mode: LwirOutputMode): JsonSchema {
  switch (mode.mode) {
    case "text":
      return { type: "string" };
    case "choice":
      return { type: "string", enum: [...mode.values] };
    case "json":
      return mode.schema ?? true;
    default:
      return mode.schema;
  }
}
