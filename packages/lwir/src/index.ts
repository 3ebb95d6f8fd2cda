// Public surface of @little-stack/lwir: an explicit list of named exports.

// Validation (lwir-validator): validateLwir, assertValidLwir, finding codes, LWIR types.
export { assertValidLwir } from "./assert-valid-lwir.js";
export { LWIR_FINDING_CODES, type LwirFindingCode } from "./findings.js";
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
