import type { LanguageModelV3 } from "@ai-sdk/provider";
import { unsupportedAiSdkModel } from "@little-stack/harness";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";

/**
 * A model offered to a workflow, made by `model(languageModel, options)`. Its slot id (what LWIR
 * steps name in `with.model`) is `options.id` when given, else derived from the model name when
 * the workflow is defined (see `assignModelSlotIds`).
 */
export type ModelSlotSpec = {
  readonly kind: "model-slot";
  readonly model: LanguageModelV3;
  readonly id?: string;
  readonly description?: string;
};

export type ModelOptions = {
  /** What the planner reads when choosing among slots ("Fast model for short structured outputs."). */
  readonly description?: string;
  /** An explicit slot id; default: the model name, with an animal suffix on collision. */
  readonly id?: string;
};

/** Slot ids are used as LWIR `with.model` values and as keys; keep them short and printable. */
export const modelSlotIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}$/;

/** True for an AI SDK V3 language model object. */
export function isLanguageModelV3(value: unknown): value is LanguageModelV3 {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<LanguageModelV3>;
  return candidate.specificationVersion === "v3" && typeof candidate.modelId === "string" && typeof candidate.provider === "string";
}

export function isModelSlotSpec(value: unknown): value is ModelSlotSpec {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "model-slot" && isLanguageModelV3((value as { model?: unknown }).model);
}

/** Describes a value for an error message without dumping it. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  if (typeof value === "function") return "a function";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    const version = (value as { specificationVersion?: unknown }).specificationVersion;
    if (typeof version === "string") return `a ${version} language model`;
    return "an object";
  }
  return `a ${typeof value}`;
}

/** Checks that `value` is an AI SDK V3 model object; `field` names the option in the error. */
export function requireLanguageModel(value: unknown, field: string, workflowId?: string): LanguageModelV3 {
  if (isLanguageModelV3(value)) return value;
  const otherGeneration = unsupportedAiSdkModel(value);
  if (otherGeneration !== undefined) {
    throw new WorkflowDefinitionError({
      code: "definition.invalid_model",
      field,
      problem: otherGeneration.replace(/\.$/, ""),
      fix: 'Then pass that provider\'s model, e.g. openai("gpt-4o-mini").',
      ...(workflowId === undefined ? {} : { workflowId }),
    });
  }
  throw new WorkflowDefinitionError({
    code: "definition.invalid_model",
    field,
    problem: `must be an AI SDK V3 language model object, got ${describeValue(value)}`,
    fix: 'Pass a provider model such as openai("gpt-4o-mini") or createOpenAICompatible({ ... })("model-id"); model id strings are not resolved.',
    ...(workflowId === undefined ? {} : { workflowId }),
  });
}

/** Declares a model slot: `model(openai("gpt-4o-mini"), { description: "Fast model." })`. */
export function model(languageModel: LanguageModelV3, options: ModelOptions = {}): ModelSlotSpec {
  const checked = requireLanguageModel(languageModel, "model(languageModel)");
  if (options.id !== undefined && (typeof options.id !== "string" || !modelSlotIdPattern.test(options.id))) {
    throw new WorkflowDefinitionError({
      code: "definition.invalid_field",
      field: "model(…, { id })",
      problem: `is ${describeValue(options.id)}, which is not a usable slot id`,
      fix: "Use 1-128 characters: a letter or digit first, then letters, digits, '.', '_', ':', '/', '@' or '-'.",
    });
  }
  if (options.description !== undefined && typeof options.description !== "string") {
    throw new WorkflowDefinitionError({
      code: "definition.invalid_field",
      field: "model(…, { description })",
      problem: `must be a string, got ${describeValue(options.description)}`,
      fix: "Describe what the model is good at in one sentence, or leave it out.",
    });
  }
  return Object.freeze({
    kind: "model-slot",
    model: checked,
    ...(options.id === undefined ? {} : { id: options.id }),
    ...(options.description === undefined ? {} : { description: options.description }),
  });
}
