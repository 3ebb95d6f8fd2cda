/**
 * A compact, TypeScript-like rendering of a JSON Schema for prompts (`{jobId: string, limit?: number}`):
 * shorter than the schema itself and easy for a model to read. Unknown constructs fall back to
 * their JSON.
 */
export function describeSchemaShape(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null || depth > 6) return JSON.stringify(schema) ?? "any";
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (node.const !== undefined) return JSON.stringify(node.const);
  const branches = (node.anyOf ?? node.oneOf) as unknown;
  if (Array.isArray(branches)) return branches.map((branch) => describeSchemaShape(branch, depth + 1)).join(" | ");
  const type = node.type;
  if (Array.isArray(type)) return type.map((entry) => describeSchemaShape({ ...node, type: entry }, depth + 1)).join(" | ");
  if (type === "array") {
    const items = describeSchemaShape(node.items, depth + 1);
    return items.includes(" ") ? `(${items})[]` : `${items}[]`;
  }
  if (type === "object" || node.properties !== undefined) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const fields = Object.entries(properties).map(([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${describeSchemaShape(value, depth + 1)}`);
    return `{${fields.join(", ")}}`;
  }
  if (type === "integer") return "integer";
  if (typeof type === "string") return type;
  return "any";
}
