/** What a decision commits (lwir.md §2): always `{ chosen }`. */
const decisionOutputSchema = { type: "object", properties: { chosen: { type: "string" } }, required: ["chosen"], additionalProperties: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON Schema of what a step commits, as far as its declaration says: text → a string,
 * choice → one of its values, object/array/json → its schema, a decision → `{ chosen }`.
 * Undefined when the output mode is missing, malformed or a `json` mode without a schema.
 * Takes the raw step (any JSON), never throws.
 */
export function stepOutputSchema(step: unknown): unknown {
  if (!isRecord(step)) return undefined;
  if (step.uses === "decision") return decisionOutputSchema;
  const output = step.output;
  if (!isRecord(output)) return undefined;
  switch (output.mode) {
    case "text":
      return { type: "string" };
    case "choice":
      return Array.isArray(output.values) ? { type: "string", enum: output.values } : { type: "string" };
    case "object":
    case "array":
    case "json":
      return Object.hasOwn(output, "schema") ? output.schema : undefined;
    default:
      return undefined;
  }
}
