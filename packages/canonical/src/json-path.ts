/** Path segments as they are walked: property names and array indexes. */
export type JsonPathSegment = string | number;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats segments as a JSONPath-like string from `$`: `$.steps[1].with.model`,
 * `$.with.files["a.ts"]`. Names that are not plain identifiers use bracket notation with a
 * JSON-quoted key, so the path stays unambiguous whatever the key contains.
 */
export function formatJsonPath(segments: readonly JsonPathSegment[]): string {
  let path = "$";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (identifier.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
