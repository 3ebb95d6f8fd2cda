import { createSchemaValidator, type LwirOutputMode } from "@little-stack/lwir";
import type { OutputMismatch } from "./output-schema-errors.js";

/** How `value` differs from an LWIR output mode (empty when it matches). */
export function outputModeMismatches(mode: LwirOutputMode, value: unknown): readonly OutputMismatch[] {
  switch (mode.mode) {
    case "text":
      return typeof value === "string" ? [] : [{ path: "$", message: `expected a string (output mode "text"), got ${describe(value)}` }];
    case "choice":
      return typeof value === "string" && mode.values.includes(value)
        ? []
        : [{ path: "$", message: `expected one of ${mode.values.map((entry) => JSON.stringify(entry)).join(", ")}, got ${describe(value)}` }];
    case "json":
      return mode.schema === undefined ? [] : createSchemaValidator(mode.schema)(value).errors;
    case "object":
    case "array":
      return createSchemaValidator(mode.schema)(value).errors;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
