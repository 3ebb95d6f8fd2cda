/**
 * Session manifests (seed 000, Identity + Manifests): everything a session's behaviour depends
 * on, as hashes and ids. Stored in `harness.session.started`; recomputed on resume, and a
 * different hash is capability drift.
 */
export type PlannerManifest = {
  readonly harnessId: string;
  readonly plannerModelSlotId: string;
  readonly systemPromptHash: string;
  readonly skillsHash: string;
  readonly workflowDefinitionHash: string;
  readonly globalToolsHash: string;
  readonly bashCapabilitiesHash: string;
  readonly memoryStoreIds: readonly string[];
  readonly outerLoopContextHash?: string;
};

export type OrchestratorManifest = {
  readonly harnessId: string;
  readonly orchestratorModelSlotId: string;
  readonly systemPromptHash: string;
  readonly skillsHash: string;
  readonly availableWorkflows: readonly { readonly workflowId: string; readonly workflowDefinitionHash: string }[];
  readonly globalToolsHash: string;
  readonly bashCapabilitiesHash: string;
  readonly memoryStoreIds: readonly string[];
  readonly maxConcurrentSubRuns: number;
};

export type WorkerManifest = {
  readonly harnessId: string;
  readonly workflowDefinitionHash: string;
  readonly workflowVersionId: string;
  readonly stepPath: string;
  readonly stepConfigHash: string;
  readonly modelSlotId?: string;
  readonly systemPromptHash?: string;
  readonly skillsHash: string;
  readonly allowedToolsHash: string;
  readonly bashCapabilitiesHash: string;
  readonly memoryStoreIds: readonly string[];
};

export type FixerManifest = WorkerManifest & {
  readonly fixerModelSlotId: string;
  readonly fixerSystemHash: string;
  readonly fixerMaxAttempts: number;
};

export type HarnessManifest = PlannerManifest | OrchestratorManifest | WorkerManifest | FixerManifest;
