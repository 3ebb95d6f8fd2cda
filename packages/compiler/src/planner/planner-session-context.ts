import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { WorkflowDefinition } from "@little-stack/authoring";
import {
  builtinPlannerSkills,
  type HarnessRuntimeMount,
  type MemoryMount,
  type ResolvedModel,
  type ScratchMount,
  type SkillDescriptor,
  type ToolRegistry,
} from "@little-stack/harness";
import { memoryStoreIds, mountsForRole } from "@little-stack/memory";
import { resolveSkills, skillStaging } from "@little-stack/skills";
import type { Tool, ToolSet } from "ai";

/** What the planner session sees, before the manifest and session key are added. */
export type PlannerSessionParts = {
  readonly model: ResolvedModel;
  /** Tool descriptors: description and schemas, never `execute` (the planner sees, not runs). */
  readonly tools: ToolSet;
  readonly memoryMounts: readonly MemoryMount[];
  readonly scratchMounts: readonly ScratchMount[];
  readonly skills: readonly SkillDescriptor[];
  readonly skillsHash: string;
  /** Skills staged read-only at `.agents/skills/<name>/`. */
  readonly mounts: readonly HarnessRuntimeMount[];
  readonly memoryStoreIds: readonly string[];
};

/** Tools as the planner may see them: everything but `execute`. */
export function describeOnlyTools(registry: ToolRegistry): ToolSet {
  const visible: ToolSet = {};
  for (const name of registry.names) {
    const { execute: _execute, ...descriptor } = registry.get(name) as Tool & { execute?: unknown };
    visible[name] = descriptor as Tool;
  }
  return visible;
}

/** A model for sessions that must never call one (a fixed plan): any call fails loudly. */
function modelThatMustNotBeCalled(reason: string): LanguageModelV3 {
  const fail = async (): Promise<never> => {
    throw new Error(reason);
  };
  return { specificationVersion: "v3", provider: "none", modelId: "none", supportedUrls: {}, doGenerate: fail, doStream: fail };
}

function resolvedPlannerModel(definition: WorkflowDefinition): ResolvedModel {
  const slot = definition.planner.model;
  if (slot === undefined) {
    return {
      slotId: definition.planner.modelSlotId,
      provider: "none",
      modelId: "none",
      model: modelThatMustNotBeCalled(`Workflow "${definition.id}" has a fixed plan; its planner has no model to call.`),
    };
  }
  return { slotId: slot.id, provider: slot.providerId, modelId: slot.modelId, model: slot.model };
}

/** Resolves the planner's model, skills (declared + org) and mounts (memory rw/ro, own scratch). */
export async function preparePlannerSession(options: {
  readonly definition: WorkflowDefinition;
  readonly tools: ToolRegistry;
  readonly dataDir: string;
  readonly runId: string;
  readonly pipelineRunId?: string;
}): Promise<PlannerSessionParts> {
  const { definition } = options;
  const { memoryMounts, scratchMounts } = mountsForRole({
    role: "planner",
    dataDir: options.dataDir,
    workflowId: definition.id,
    memory: definition.memory,
    runId: options.runId,
    ...(options.pipelineRunId === undefined ? {} : { pipelineRunId: options.pipelineRunId }),
  });
  // The SDK's LWIR reference is staged for every planner (a workflow or org skill named "lwir" replaces it).
  const resolved = await resolveSkills(definition.planner.skills, { dataDir: options.dataDir, includeOrg: true, builtin: builtinPlannerSkills });
  return {
    model: resolvedPlannerModel(definition),
    tools: describeOnlyTools(options.tools),
    memoryMounts,
    scratchMounts,
    skills: resolved.skills.map((skill) => ({ name: skill.name, description: skill.description, source: skill.source, contentHash: skill.contentHash })),
    skillsHash: resolved.hash,
    mounts: skillStaging(resolved.skills).map((entry) => ({ mountPath: entry.mountPath, mode: entry.mode, hostPath: entry.hostPath })),
    memoryStoreIds: memoryStoreIds(memoryMounts),
  };
}
