import { workflowDefinitionReady, type WorkflowDefinition } from "@little-stack/authoring";
import { sha256Digest, type Sha256Digest } from "@little-stack/canonical";
import type { ToolDescriptor, ToolRegistry, WorkflowDefinitionSnapshot } from "@little-stack/harness";
import type { JsonSchema, LwirOutputMode } from "@little-stack/lwir";
import { resolveSkills } from "@little-stack/skills";

/**
 * Seed 001's `WorkflowDefinitionSnapshot` plus what a planner needs to write a binding LWIR and
 * what must change the definition hash: the schemas themselves (the planner copies them into the
 * LWIR), the requested output mode, the planner model, and every tool's descriptor (name,
 * description, input/output schema, digest). It is what the planner sees, and
 * `WorkflowDefinitionHash = sha256(canonicalJson(snapshot))`.
 */
export type CompilerWorkflowDefinitionSnapshot = WorkflowDefinitionSnapshot & {
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly requestedOutput: LwirOutputMode;
  readonly requestedOutputHash: Sha256Digest;
  readonly plannerConfig: WorkflowDefinitionSnapshot["plannerConfig"] & {
    readonly providerId: string;
    readonly modelId: string;
    readonly maxWorkflowRevisions: number;
  };
  readonly tools: readonly ToolDescriptor[];
  /** Digest of the sorted `{ name, digest }` tool list (the registry's digest). */
  readonly globalToolsHash: Sha256Digest;
};

/**
 * Builds the snapshot of a definition. Async because tool schemas may be produced lazily and
 * declared skills are read (their content hashes); org skills are not part of the definition
 * (they belong to the data dir and enter the PlannerManifest instead).
 */
export async function createWorkflowDefinitionSnapshot(options: {
  readonly definition: WorkflowDefinition;
  /** The registry of exactly the workflow's tools (`resolveWorkflowTools`). */
  readonly tools: ToolRegistry;
  readonly dataDir: string;
}): Promise<CompilerWorkflowDefinitionSnapshot> {
  const definition = await workflowDefinitionReady(options.definition);
  const [toolSnapshot, plannerSkills, workerSkills] = await Promise.all([
    options.tools.describe(),
    resolveSkills(definition.planner.skills, { dataDir: options.dataDir, includeOrg: false }),
    resolveSkills(definition.worker.skills, { dataDir: options.dataDir, includeOrg: false }),
  ]);
  const plannerModel = definition.planner.model;
  return {
    id: definition.id,
    description: definition.description,
    inputSchemaHash: sha256Digest(definition.inputSchema),
    outputSchemaHash: sha256Digest(definition.outputSchema),
    modelSlots: definition.models.map((slot) => ({ id: slot.id, providerId: slot.providerId, modelId: slot.modelId, description: slot.description })),
    plannerConfig: {
      modelSlotId: definition.planner.modelSlotId,
      harnessId: definition.planner.harnessId,
      systemHash: sha256Digest(definition.planner.system ?? ""),
      skillsHash: plannerSkills.hash,
      providerId: plannerModel?.providerId ?? "none",
      modelId: plannerModel?.modelId ?? "none",
      maxWorkflowRevisions: definition.planner.maxWorkflowRevisions,
    },
    workerConfig: { harnessId: definition.worker.harnessId, skillsHash: workerSkills.hash },
    globalTools: [...definition.globalTools].sort(),
    memoryConfig: {
      workflow: definition.memory.workflow,
      org: definition.memory.org,
      attached: definition.memory.attach.map((workflowId) => ({ workflowId, mode: "ro" })),
    },
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema,
    requestedOutput: definition.output,
    requestedOutputHash: sha256Digest(definition.output),
    tools: toolSnapshot.tools,
    globalToolsHash: toolSnapshot.digest,
  };
}

/** `sha256(canonicalJson(snapshot))`: stable under key order, different when any field differs. */
export function workflowDefinitionHash(snapshot: CompilerWorkflowDefinitionSnapshot): Sha256Digest {
  return sha256Digest(snapshot);
}
