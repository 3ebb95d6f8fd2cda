import type { JsonPathSegment } from "@little-stack/canonical";
import { describeValue, shown, type FindingList } from "../findings.js";
import { LWIR_API_VERSION, LWIR_KIND } from "../types.js";
import { hasField, isNonEmptyString, isRecord, ownField, unknownKeys } from "./json-shape.js";
import { LWIR_FIELDS } from "../lwir-fields.js";
import type { LwirRuleContext } from "./rule-context.js";

const documentFields = new Set(LWIR_FIELDS.document);
const metadataFields = new Set(LWIR_FIELDS.metadata);
const permissionFields = LWIR_FIELDS.permissions;
const notImplementedPermissions = new Set(["secrets", "network"]);

/** lwir.md §1: the document envelope, metadata, workflow schemas and permissions. */
export function checkDocumentRules(context: LwirRuleContext, findings: FindingList): void {
  const document = context.document;
  for (const key of unknownKeys(document, documentFields)) {
    findings.report({
      code: "schema.invalid",
      path: [key],
      message: `Unknown top-level field \`${shown(key)}\`: an LWIR document has only apiVersion, kind, metadata, input, output, permissions and steps. Remove it.`,
    });
  }
  if (ownField(document, "apiVersion") !== LWIR_API_VERSION) {
    findings.report({
      code: "schema.invalid",
      path: ["apiVersion"],
      message: `apiVersion must be "${LWIR_API_VERSION}" (got ${describeValue(ownField(document, "apiVersion"))}).`,
    });
  }
  if (ownField(document, "kind") !== LWIR_KIND) {
    findings.report({
      code: "schema.invalid",
      path: ["kind"],
      message: `kind must be "${LWIR_KIND}" (got ${describeValue(ownField(document, "kind"))}).`,
    });
  }
  checkMetadata(ownField(document, "metadata"), findings);
  for (const section of ["input", "output"] as const) {
    checkSchemaSection({ context, findings, section });
  }
  if (hasField(document, "permissions")) checkPermissions(ownField(document, "permissions"), findings);
  const steps = ownField(document, "steps");
  if (!Array.isArray(steps) || steps.length === 0) {
    findings.report({
      code: "schema.invalid",
      path: ["steps"],
      message: `steps must be a non-empty array of steps (got ${describeValue(steps)}).`,
    });
  }
}

function checkMetadata(metadata: unknown, findings: FindingList): void {
  if (!isRecord(metadata)) {
    findings.report({
      code: "schema.invalid",
      path: ["metadata"],
      message: `metadata must be an object with a non-empty \`name\` (got ${describeValue(metadata)}).`,
    });
    return;
  }
  for (const key of unknownKeys(metadata, metadataFields)) {
    findings.report({
      code: "schema.invalid",
      path: ["metadata", key],
      message: `Unknown metadata field \`${shown(key)}\`: metadata has only name, version and description.`,
    });
  }
  if (!isNonEmptyString(ownField(metadata, "name"))) {
    findings.report({
      code: "schema.invalid",
      path: ["metadata", "name"],
      message: `metadata.name must be a non-empty string, the workflow id (got ${describeValue(ownField(metadata, "name"))}).`,
    });
  }
  for (const key of ["version", "description"]) {
    if (hasField(metadata, key) && typeof ownField(metadata, key) !== "string") {
      findings.report({
        code: "schema.invalid",
        path: ["metadata", key],
        message: `metadata.${key} must be a string when present (got ${describeValue(ownField(metadata, key))}).`,
      });
    }
  }
}

function checkSchemaSection(options: {
  context: LwirRuleContext;
  findings: FindingList;
  section: "input" | "output";
}): void {
  const { context, findings, section } = options;
  const value = ownField(context.document, section);
  if (!isRecord(value)) {
    findings.report({
      code: "schema.invalid",
      path: [section],
      message: `${section} must be an object with a \`schema\` (the workflow ${section} JSON Schema); got ${describeValue(value)}.`,
    });
    return;
  }
  for (const key of unknownKeys(value, new Set(LWIR_FIELDS.schemaSection))) {
    findings.report({
      code: "schema.invalid",
      path: [section, key],
      message: `Unknown field \`${shown(key)}\` in ${section}: it has only \`schema\`.`,
    });
  }
  if (!hasField(value, "schema")) {
    findings.report({
      code: "schema.invalid",
      path: [section, "schema"],
      message: `${section}.schema is required: the JSON Schema of the workflow ${section}.`,
    });
    return;
  }
  reportSchemaProblems({ context, findings, schema: ownField(value, "schema"), path: [section, "schema"] });
}

/** Reports every subset problem of a schema as `schema.invalid`; true when there were none. */
export function reportSchemaProblems(options: {
  context: LwirRuleContext;
  findings: FindingList;
  schema: unknown;
  path: readonly JsonPathSegment[];
}): boolean {
  const problems = options.context.checkSchema(options.schema, options.path);
  for (const problem of problems) {
    options.findings.report({
      code: "schema.invalid",
      path: problem.path,
      message: `JSON Schema outside the supported subset (lwir.md §5): ${problem.message}.`,
    });
  }
  return problems.length === 0;
}

function checkPermissions(permissions: unknown, findings: FindingList): void {
  if (!isRecord(permissions)) {
    findings.report({
      code: "schema.invalid",
      path: ["permissions"],
      message: `permissions must be an object with optional models, tools, secrets and network arrays (got ${describeValue(permissions)}).`,
    });
    return;
  }
  for (const key of unknownKeys(permissions, new Set(permissionFields))) {
    findings.report({
      code: "schema.invalid",
      path: ["permissions", key],
      message: `Unknown permissions field \`${shown(key)}\`: permissions has only models, tools, secrets and network.`,
    });
  }
  for (const key of permissionFields) {
    if (!hasField(permissions, key)) continue;
    checkPermissionList({ findings, key, list: ownField(permissions, key) });
  }
}

function checkPermissionList(options: { findings: FindingList; key: string; list: unknown }): void {
  const { findings, key, list } = options;
  if (!Array.isArray(list)) {
    findings.report({
      code: "schema.invalid",
      path: ["permissions", key],
      message: `permissions.${key} must be an array of strings (got ${describeValue(list)}).`,
    });
    return;
  }
  const badIndex = list.findIndex((entry) => !isNonEmptyString(entry));
  if (badIndex >= 0) {
    findings.report({
      code: "schema.invalid",
      path: ["permissions", key, badIndex],
      message: `permissions.${key} entries must be non-empty strings (got ${describeValue(list[badIndex])}).`,
    });
    return;
  }
  if (notImplementedPermissions.has(key) && list.length > 0) {
    findings.report({
      code: "schema.unimplemented_field",
      path: ["permissions", key],
      message: `permissions.${key} is not implemented in LWIR v0.1: leave it empty or remove it.`,
    });
  }
}

