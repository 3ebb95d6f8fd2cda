import { sha256Digest } from "@little-stack/canonical";
import type { ToolDescriptor } from "@little-stack/harness";
import type { LwirDocument, LwirOutputMode, WorkflowVersion } from "@little-stack/lwir";
import type { CompilerWorkflowDefinitionSnapshot } from "../snapshot/create-workflow-definition-snapshot.js";

/** A model slot as the lock pins it. */
export type LockedModelSlot = { readonly id: string; readonly providerId: string; readonly modelId: string; readonly description: string };

/** A tool as the lock pins it: its descriptor digest (name, description, input/output schema). */
export type LockedTool = { readonly name: string; readonly digest: string };

/** What the locked LWIR may use; the runtime compares it with the live capabilities. */
export type CapabilityManifest = {
  readonly workerHarnessId: string;
  readonly modelSlots: readonly LockedModelSlot[];
  readonly tools: readonly LockedTool[];
};

/**
 * Seed 001's `compiler-lock` fields: the WorkflowVersion plus everything it was bound to.
 * `workflowVersionId` equals `lwirVersionId` (`wfver_…`, runtime.md §9's id, which the runtime
 * checks); `requestedOutput` is the definition's LWIR output mode.
 */
export type CompilerLock = {
  readonly workflowVersionId: string;
  readonly workflowVersionHash: string;
  readonly lwirVersionId: string;
  readonly lwirHash: string;
  readonly workflowDefinitionHash: string;
  readonly inputSchemaHash: string;
  readonly requestedOutput: LwirOutputMode;
  readonly requestedOutputHash: string;
  readonly capabilityManifest: CapabilityManifest;
  readonly capabilityManifestHash: string;
  readonly modelSlots: readonly LockedModelSlot[];
  readonly tools: readonly LockedTool[];
  readonly validationHash: string;
};

/** Names what validated the LWIR; part of `validationHash`. */
export const lockValidator = "validateLwir+binding@littleworkflow.dev/v0.1";

export function buildCompilerLock(options: {
  readonly version: WorkflowVersion<LwirDocument>;
  readonly snapshot: CompilerWorkflowDefinitionSnapshot;
  readonly workflowDefinitionHash: string;
  readonly toolDescriptors: readonly ToolDescriptor[];
}): CompilerLock {
  const { version, snapshot } = options;
  const permissions = version.lwir.permissions ?? {};
  const permittedModels = new Set(permissions.models ?? []);
  const permittedTools = new Set(permissions.tools ?? []);
  const modelSlots = snapshot.modelSlots.filter((slot) => permittedModels.has(slot.id)).map((slot) => ({ ...slot }));
  const tools = options.toolDescriptors.filter((tool) => permittedTools.has(tool.name)).map((tool) => ({ name: tool.name, digest: tool.digest }));
  const capabilityManifest: CapabilityManifest = { workerHarnessId: snapshot.workerConfig.harnessId, modelSlots, tools };
  return {
    workflowVersionId: version.id,
    workflowVersionHash: version.hash,
    lwirVersionId: version.id,
    lwirHash: version.hash,
    workflowDefinitionHash: options.workflowDefinitionHash,
    inputSchemaHash: snapshot.inputSchemaHash,
    requestedOutput: snapshot.requestedOutput,
    requestedOutputHash: snapshot.requestedOutputHash,
    capabilityManifest,
    capabilityManifestHash: sha256Digest(capabilityManifest),
    modelSlots,
    tools,
    validationHash: sha256Digest({ validator: lockValidator, lwirHash: version.hash, workflowDefinitionHash: options.workflowDefinitionHash, findings: [] }),
  };
}
