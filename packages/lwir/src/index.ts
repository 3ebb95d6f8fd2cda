// Public surface of @little-stack/lwir: an explicit list of named exports.

// Validation (lwir-validator): validateLwir, assertValidLwir, finding codes, LWIR types.
export { assertValidLwir } from "./assert-valid-lwir.js";
export { LWIR_FINDING_CODES, type LwirFindingCode } from "./findings.js";
export { LWIR_FIELDS, type LwirFieldLocation } from "./lwir-fields.js";
export { LwirValidationError } from "./lwir-validation-error.js";
export {
  LWIR_API_VERSION,
  LWIR_KIND,
  LWIR_STEP_TYPES,
  type LwirAiGenerateStep,
  type LwirBackoff,
  type LwirBodyStep,
  type LwirCodeFile,
  type LwirCodeRunStep,
  type LwirDecisionCase,
  type LwirDecisionResult,
  type LwirDecisionStep,
  type LwirDocument,
  type LwirFanInConfig,
  type LwirFanInEntry,
  type LwirFinding,
  type LwirFixerConfig,
  type LwirJsonSchema,
  type LwirMetadata,
  type LwirOnFailure,
  type LwirParallelConfig,
  type LwirParallelStep,
  type LwirPermissions,
  type LwirRetryPolicy,
  type LwirSandboxDeny,
  type LwirSandboxPolicy,
  type LwirSchemaSection,
  type LwirStep,
  type LwirStepCommon,
  type LwirStepType,
  type LwirToolCallStep,
  type ValidationResult,
} from "./types.js";
export { validateLwir } from "./validate-lwir.js";
export { unguardedOptionalReads, type OptionalRead } from "./optional-reads.js";

// Expressions, JSON Schema subset, schema/output-mode normalization, identity (lwir-core).
export { deepFreeze, type DeepReadonly } from "./deep-freeze.js";
export {
  analyzeTemplatesIn,
  analyzeTemplateString,
  type RootReference,
  type StepReference,
  type TemplateAnalysis,
  type TemplateAnalysisAt,
  type TemplateAnalysisOptions,
} from "./expressions/analyze-template.js";
export {
  evaluateExpression,
  evaluateTemplateString,
  isTruthy,
  resolveTemplates,
  type ExpressionContext,
  type StepExpressionState,
} from "./expressions/evaluate-template.js";
export type {
  CallExpression,
  ComparisonExpression,
  ComparisonOperator,
  Expression,
  ExpressionPathSegment,
  LiteralExpression,
  LogicalExpression,
  PathExpression,
} from "./expressions/expression-ast.js";
export {
  ExpressionEvaluationError,
  ExpressionSyntaxError,
  type ExpressionEvaluationErrorCode,
} from "./expressions/expression-errors.js";
export { expressionFunctions, type ExpressionFunction } from "./expressions/expression-functions.js";
export { expressionRoots, stepAccessors, type ExpressionRoot, type StepAccessor } from "./expressions/expression-vocabulary.js";
export { parseExpression } from "./expressions/parse-expression.js";
export { parseTemplateString, type TemplateParse } from "./expressions/parse-template.js";
export {
  allowedSchemaKeywords,
  checkSchemaSubset,
  type SchemaSubsetProblem,
} from "./schema/check-schema-subset.js";
export {
  createSchemaValidator,
  type SchemaValidationIssue,
  type SchemaValidationResult,
  type SchemaValidator,
} from "./schema/create-schema-validator.js";
export type { JsonSchema, JsonSchemaObject } from "./schema/json-schema.js";
export { stepOutputSchema } from "./schema/output-mode-schema.js";
export { schemaAtPath, type SchemaPathVerdict } from "./schema/schema-at-path.js";
export { schemaImplicationGaps, type SchemaImplicationGap } from "./schema/schema-implies.js";
export { schemasEquivalent } from "./schema/schemas-equivalent.js";
export {
  isAiSdkSchema,
  isZodSchema,
  normalizeSchema,
  type AiSdkSchemaLike,
  type SchemaLike,
  type ZodSchemaLike,
} from "./schema/normalize-schema.js";
export {
  isAiSdkOutput,
  normalizeOutputMode,
  normalizeOutputModeAsync,
  type AiSdkOutputLike,
  type LwirOutputMode,
  type LwirOutputModeName,
  type NormalizedOutputMode,
  type OutputModeKindSpec,
  type OutputModeLwirSpec,
  type OutputModeSpec,
} from "./schema/output-mode.js";
export {
  OutputModeError,
  SchemaCompilationError,
  SchemaNormalizationError,
  type SchemaNormalizationErrorCode,
} from "./schema/schema-errors.js";
export {
  registerWorkflowVersion,
  WORKFLOW_VERSION_CANONICALIZER,
  type WorkflowVersion,
} from "./register-workflow-version.js";
