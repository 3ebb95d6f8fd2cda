import type { JsonPathSegment } from "@little-stack/canonical";
import type { ErrorObject } from "ajv";
import { describeAjvError, pointerToSegments, schemaDialectOf, supportedSchemaUris } from "./ajv-instances.js";
import { metaSchemaErrors } from "./meta-schema-validators.js";

/** One reason a schema is outside the LWIR subset; `path` is relative to the schema. */
export type SchemaSubsetProblem = {
  readonly path: JsonPathSegment[];
  readonly message: string;
};

/** The keywords LWIR §5 allows; everything else is rejected by name. */
export const allowedSchemaKeywords: readonly string[] = [
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "propertyNames",
  "title",
  "description",
  "examples",
  "$schema",
];
const allowed: ReadonlySet<string> = new Set(allowedSchemaKeywords);

const hints: Readonly<Record<string, string>> = {
  $ref: "inline the referenced schema",
  $defs: "inline the definitions where they are used",
  definitions: "inline the definitions where they are used",
  $id: "remove it",
  pattern: "check the pattern in a code.run step, or use enum",
  format: "check the format in a code.run step, or describe it in `description`",
  default: "defaults are not applied; remove it and put the value in the input",
  allOf: "merge the branches into one schema",
  not: "express the constraint with enum, const or anyOf",
  prefixItems: "use an array of one item schema, or an object with named properties",
  exclusiveMinimum: "use minimum",
  exclusiveMaximum: "use maximum",
  patternProperties: "use propertyNames with additionalProperties",
  multipleOf: "check it in a code.run step",
  uniqueItems: "check it in a code.run step",
};

const primitiveTypes: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null"]);

type SchemaNode = { readonly [keyword: string]: unknown };

function isSchemaObject(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPrimitiveValue(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/**
 * Ajv meta-validation, one problem per schema location (Ajv repeats itself across anyOf). It runs
 * Ajv's precompiled meta-schema validators, never an Ajv instance: compiling the 2020-12
 * meta-schema on first use cost ~80 ms of every `little validate`.
 */
function metaProblems(schema: SchemaNode): SchemaSubsetProblem[] {
  const dialect = schemaDialectOf(schema);
  if (dialect === undefined) {
    return [
      {
        path: ["$schema"],
        message: `keyword "$schema" names an unsupported dialect ${JSON.stringify(schema.$schema)}: use ${supportedSchemaUris[0]} or http://json-schema.org/draft-07/schema#`,
      },
    ];
  }
  let errors: readonly ErrorObject[];
  try {
    errors = metaSchemaErrors(schema, dialect);
  } catch (error) {
    const reason = error instanceof RangeError ? "it nests too deeply or contains a cycle" : error instanceof Error ? error.message : String(error);
    return [{ path: [], message: `schema could not be meta-validated: ${reason}` }];
  }
  const problems: SchemaSubsetProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (seen.has(error.instancePath)) continue;
    seen.add(error.instancePath);
    const path = pointerToSegments(error.instancePath);
    const keyword = path.length === 0 ? "schema" : `keyword "${String(path[path.length - 1])}"`;
    problems.push({ path, message: `${keyword} ${describeAjvError(error)} (JSON Schema ${dialect} meta-schema)` });
  }
  return problems;
}

function branchKind(branch: unknown): "primitive" | "object" | "other" {
  if (!isSchemaObject(branch)) return "other";
  const type = branch.type;
  if (type === "object") return "object";
  if (typeof type === "string") return primitiveTypes.has(type) ? "primitive" : "other";
  if (Array.isArray(type)) return type.every((entry) => primitiveTypes.has(entry as string)) ? "primitive" : "other";
  if (Object.hasOwn(branch, "const")) return isPrimitiveValue(branch.const) ? "primitive" : "other";
  if (Array.isArray(branch.enum)) return branch.enum.every(isPrimitiveValue) ? "primitive" : "other";
  if (isSchemaObject(branch.properties)) return "object";
  return "other";
}

/** The values a branch allows for `property`, when it pins them with const/enum and requires it. */
function discriminatorValues(branch: SchemaNode, property: string): unknown[] | undefined {
  const required = Array.isArray(branch.required) ? branch.required : [];
  if (!required.includes(property) || !isSchemaObject(branch.properties)) return undefined;
  const schema = Object.hasOwn(branch.properties, property) ? branch.properties[property] : undefined;
  if (!isSchemaObject(schema)) return undefined;
  if (Object.hasOwn(schema, "const")) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  return undefined;
}

function hasDiscriminator(branches: readonly SchemaNode[]): boolean {
  const first = branches[0]!;
  const candidates = Array.isArray(first.required) ? first.required.filter((name): name is string => typeof name === "string") : [];
  return candidates.some((property) => {
    const taken = new Set<string>();
    for (const branch of branches) {
      const values = discriminatorValues(branch, property);
      if (values === undefined) return false;
      for (const value of values) {
        const key = JSON.stringify(value);
        if (taken.has(key)) return false;
        taken.add(key);
      }
    }
    return true;
  });
}

function checkBranches(node: SchemaNode, keyword: "anyOf" | "oneOf", path: JsonPathSegment[], problems: SchemaSubsetProblem[]): void {
  const branches = node[keyword];
  if (!Array.isArray(branches)) return;
  const kinds = branches.map(branchKind);
  kinds.forEach((kind, index) => {
    if (kind === "other") {
      problems.push({
        path: [...path, keyword, index],
        message: `keyword "${keyword}": branch ${index} must be a primitive schema (string, number, integer, boolean, null, or const/enum of those) or an object schema`,
      });
    }
  });
  if (kinds.includes("other")) return;
  if (kinds.includes("primitive") && kinds.includes("object")) {
    problems.push({
      path: [...path, keyword],
      message: `keyword "${keyword}" mixes primitive and object branches: branches must be all primitive, or all objects with a discriminator property`,
    });
    return;
  }
  if (kinds[0] === "object" && branches.length > 1 && !hasDiscriminator(branches as SchemaNode[])) {
    problems.push({
      path: [...path, keyword],
      message: `keyword "${keyword}": object branches must be discriminated by one property that every branch requires and pins with const or enum (distinct values per branch)`,
    });
  }
}

const boundPairs = [
  ["minimum", "maximum"],
  ["minLength", "maxLength"],
  ["minItems", "maxItems"],
] as const;
const countingBounds = ["minLength", "maxLength", "minItems", "maxItems"] as const;

function checkNode(node: SchemaNode, path: JsonPathSegment[], problems: SchemaSubsetProblem[]): void {
  for (const keyword of Object.keys(node)) {
    if (allowed.has(keyword)) continue;
    const hint = Object.hasOwn(hints, keyword) ? `; ${hints[keyword]}` : "";
    problems.push({
      path: [...path, keyword],
      message: `keyword "${keyword}" is not in the LWIR JSON Schema subset${hint} (allowed: ${allowedSchemaKeywords.join(", ")})`,
    });
  }
  if (Array.isArray(node.type)) {
    const structured = node.type.filter((type) => type === "object" || type === "array");
    if (structured.length > 0) {
      problems.push({
        path: [...path, "type"],
        message: `keyword "type": a type array may not contain ${structured.map((type) => `"${String(type)}"`).join(" or ")}; use anyOf with one object branch instead`,
      });
    }
  }
  if (Array.isArray(node.required)) {
    const properties = isSchemaObject(node.properties) ? node.properties : {};
    node.required.forEach((name, index) => {
      if (typeof name === "string" && !Object.hasOwn(properties, name)) {
        problems.push({
          path: [...path, "required", index],
          message: `keyword "required" lists "${name}", which is not declared in "properties"`,
        });
      }
    });
  }
  for (const keyword of countingBounds) {
    const value = node[keyword];
    if (typeof value === "number" && (value < 0 || !Number.isInteger(value))) {
      problems.push({ path: [...path, keyword], message: `keyword "${keyword}" must be a non-negative integer, got ${value}` });
    }
  }
  for (const [low, high] of boundPairs) {
    const min = node[low];
    const max = node[high];
    if (typeof min === "number" && typeof max === "number" && min > max) {
      problems.push({ path: [...path, low], message: `keyword "${low}" (${min}) must not exceed "${high}" (${max})` });
    }
  }
  checkBranches(node, "anyOf", path, problems);
  checkBranches(node, "oneOf", path, problems);
}

/** The subschemas of a node, with their relative paths, in document order. */
function childSchemas(node: SchemaNode, path: JsonPathSegment[]): { schema: unknown; path: JsonPathSegment[] }[] {
  const children: { schema: unknown; path: JsonPathSegment[] }[] = [];
  if (isSchemaObject(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties)) children.push({ schema, path: [...path, "properties", name] });
  }
  for (const keyword of ["additionalProperties", "propertyNames"] as const) {
    if (Object.hasOwn(node, keyword)) children.push({ schema: node[keyword], path: [...path, keyword] });
  }
  if (Array.isArray(node.items)) node.items.forEach((schema, index) => children.push({ schema, path: [...path, "items", index] }));
  else if (Object.hasOwn(node, "items")) children.push({ schema: node.items, path: [...path, "items"] });
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches)) branches.forEach((schema, index) => children.push({ schema, path: [...path, keyword, index] }));
  }
  return children;
}

/**
 * Checks a schema against LWIR §5: Ajv meta-validation first (2020-12, or draft-07 when `$schema`
 * says so), then the keyword allowlist and the subset rules. Returns every problem found (empty =
 * fine) with paths relative to the schema. Never throws.
 */
export function checkSchemaSubset(schema: unknown): readonly SchemaSubsetProblem[] {
  if (typeof schema === "boolean") return [];
  if (!isSchemaObject(schema)) {
    const got = schema === null ? "null" : Array.isArray(schema) ? "an array" : typeof schema;
    return [{ path: [], message: `a schema must be a JSON Schema object or a boolean, got ${got}` }];
  }
  try {
    const meta = metaProblems(schema);
    if (meta.length > 0) return meta;
    const problems: SchemaSubsetProblem[] = [];
    const seen = new Set<object>();
    const stack: { schema: unknown; path: JsonPathSegment[] }[] = [{ schema, path: [] }];
    while (stack.length > 0) {
      const { schema: node, path } = stack.pop()!;
      if (!isSchemaObject(node) || seen.has(node)) continue;
      seen.add(node);
      checkNode(node, path, problems);
      const children = childSchemas(node, path);
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]!);
    }
    return problems;
  } catch (error) {
    return [{ path: [], message: `schema could not be checked: ${error instanceof Error ? error.message : String(error)}` }];
  }
}
