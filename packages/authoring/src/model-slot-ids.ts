import type { LanguageModelV3 } from "@ai-sdk/provider";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";
import { isModelSlotSpec, requireLanguageModel, type ModelSlotSpec } from "./model.js";

/** A model slot of a workflow definition, with its final id. */
export type ModelSlot = {
  readonly id: string;
  /** The AI SDK provider string (`openai.chat`, `openai-compatible.chat` …). */
  readonly providerId: string;
  readonly modelId: string;
  readonly description: string;
  readonly model: LanguageModelV3;
};

/**
 * Suffixes for slot ids whose model name is already taken, in the order they are handed out:
 * the second `gpt-4o-mini` becomes `gpt-4o-mini-otter`, the third `gpt-4o-mini-heron`, and so
 * on. After the list runs out a counter is added (`gpt-4o-mini-otter-2`). Changing this list
 * changes slot ids, and so workflow definition hashes: append only.
 */
export const slotIdAnimals: readonly string[] = Object.freeze([
  "otter",
  "heron",
  "lynx",
  "marten",
  "ibis",
  "puffin",
  "gecko",
  "bison",
  "koala",
  "okapi",
  "tapir",
  "wombat",
]);

const disallowedCharacters = /[^A-Za-z0-9._:/@-]/g;

/** The clean slot id of a model name: characters outside the slot-id alphabet become `-`. */
export function baseSlotId(modelId: string): string {
  let base = modelId.replace(disallowedCharacters, "-").slice(0, 100);
  if (!/^[A-Za-z0-9]/.test(base)) base = `model-${base}`;
  return base;
}

function firstFreeId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let round = 1; ; round += 1) {
    for (const animal of slotIdAnimals) {
      const candidate = round === 1 ? `${base}-${animal}` : `${base}-${animal}-${round}`;
      if (!taken.has(candidate)) return candidate;
    }
  }
}

/**
 * Turns `models` entries (`model(...)` specs or bare V3 models) into slots with final ids.
 * Explicit ids are reserved first, in order (two equal explicit ids are an error); then each
 * remaining model, in order, takes its model name if free, else the name plus the first free
 * animal suffix. The result depends only on the order and the names, so it is the same in every
 * process.
 */
export function assignModelSlotIds(entries: readonly unknown[], options: { readonly field: string; readonly workflowId?: string }): ModelSlot[] {
  const workflowId = options.workflowId === undefined ? {} : { workflowId: options.workflowId };
  const specs: ModelSlotSpec[] = entries.map((entry, index) =>
    isModelSlotSpec(entry) ? entry : { kind: "model-slot", model: requireLanguageModel(entry, `${options.field}[${index}]`, options.workflowId) },
  );
  const taken = new Set<string>();
  specs.forEach((spec, index) => {
    if (spec.id === undefined) return;
    if (taken.has(spec.id)) {
      throw new WorkflowDefinitionError({
        code: "definition.duplicate_model_slot",
        field: `${options.field}[${index}]`,
        problem: `uses the slot id "${spec.id}", which an earlier model already has`,
        fix: "Give each model a different id, or leave id out to derive one from the model name.",
        ...workflowId,
      });
    }
    taken.add(spec.id);
  });
  return specs.map((spec) => {
    const id = spec.id ?? firstFreeId(baseSlotId(spec.model.modelId), taken);
    taken.add(id);
    return Object.freeze({
      id,
      providerId: spec.model.provider,
      modelId: spec.model.modelId,
      description: spec.description ?? "",
      model: spec.model,
    });
  });
}
