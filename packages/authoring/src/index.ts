// Public surface of @little-stack/authoring: an explicit list of named exports.
export {
  defineWorkflow,
  isWorkflowDefinition,
  type DefineWorkflowOptions,
  type PlannerOptions,
  type WorkerOptions,
} from "./define-workflow.js";
export { workflowDefinitionReady } from "./deferred-output.js";
export { WorkflowDefinitionError, type WorkflowDefinitionErrorCode } from "./errors/workflow-definition-error.js";
export { fixedPlanHarness, fixedPlanHarnessId } from "./fixed-plan-harness.js";
export type { FromJsonSchema, InferOutputMode, InferSchemaInput, InferSchemaOutput } from "./infer-schema.js";
export { isLanguageModelV3, isModelSlotSpec, model, modelSlotIdPattern, type ModelOptions, type ModelSlotSpec } from "./model.js";
export { assignModelSlotIds, baseSlotId, slotIdAnimals, type ModelSlot } from "./model-slot-ids.js";
export { outputSchemaOfMode } from "./output-schema-of-mode.js";
export type {
  PlannerConfig,
  SuperviseDecision,
  SuperviseRequest,
  WorkerConfig,
  WorkflowDefinition,
  WorkflowInput,
  WorkflowOutput,
} from "./workflow-definition.js";
export { skill, type SkillReference } from "@little-stack/skills";
