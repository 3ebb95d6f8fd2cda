// TEMPORARY stand-ins until ../expressions and ../schema land (lwir-core). Delete then.
import type { JsonPathSegment } from "@little-stack/canonical";

type Ref = { stepId: string; accessor: "output" | "lastOutput" | "allVisits" | null };

export function analyzeTemplateString(text: string, options: { insideParallelBody: boolean }) {
  const problems: string[] = [];
  const stepReferences: Ref[] = [];
  const opens = text.split("{{").length - 1;
  const closes = text.split("}}").length - 1;
  if (opens !== closes) problems.push("unbalanced braces");
  for (const match of text.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    const body = match[1] ?? "";
    if (/;|`|=>/.test(body)) problems.push("forbidden token");
    if (!options.insideParallelBody && /(^|[^.\w])item\b/.test(body)) problems.push("item outside body");
    for (const ref of body.matchAll(/steps\.([A-Za-z0-9_-]+)(?:\.(output|lastOutput|allVisits))?/g)) {
      stepReferences.push({ stepId: ref[1] ?? "", accessor: (ref[2] as Ref["accessor"]) ?? null });
    }
  }
  return { problems, stepReferences };
}

export function analyzeTemplatesIn(value: unknown, options: { insideParallelBody: boolean }) {
  const out: { path: JsonPathSegment[]; problems: readonly string[]; stepReferences: readonly Ref[] }[] = [];
  const walk = (node: unknown, path: JsonPathSegment[], depth: number): void => {
    if (depth > 200) return;
    if (typeof node === "string") {
      if (node.includes("{{") || node.includes("}}")) out.push({ path: [...path], ...analyzeTemplateString(node, options) });
    } else if (Array.isArray(node)) node.forEach((child, index) => walk(child, [...path, index], depth + 1));
    else if (typeof node === "object" && node !== null) {
      for (const key of Object.keys(node)) walk((node as Record<string, unknown>)[key], [...path, key], depth + 1);
    }
  };
  walk(value, [], 0);
  return out;
}

export function checkSchemaSubset(schema: unknown): readonly { path: JsonPathSegment[]; message: string }[] {
  if (typeof schema === "boolean") return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [{ path: [], message: "not a schema" }];
  const out: { path: JsonPathSegment[]; message: string }[] = [];
  for (const key of ["$ref", "pattern", "format", "default"]) {
    if (Object.prototype.hasOwnProperty.call(schema, key)) out.push({ path: [key], message: `keyword ${key}` });
  }
  return out;
}
