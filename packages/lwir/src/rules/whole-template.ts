/**
 * True when `text` is exactly one `{{ … }}` template with nothing around it, the form a field
 * must take when it resolves to a typed value (decision `when`, parallel `items` / `itemKey`).
 * Whether the expression inside is valid is the expression analyzer's job.
 */
export function isWholeTemplate(text: unknown): text is string {
  return (
    typeof text === "string" &&
    text.length >= 4 &&
    text.startsWith("{{") &&
    text.endsWith("}}") &&
    text.indexOf("{{", 2) === -1 &&
    text.indexOf("}}") === text.length - 2 &&
    text.slice(2, -2).trim().length > 0
  );
}
