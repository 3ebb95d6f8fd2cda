import { canonicalSnapshot, sha256Digest } from "@little-stack/canonical";
import type { FixerManifest, WorkerManifest } from "@little-stack/harness";
import type { LwirStep } from "@little-stack/lwir";
import { memoryStoreIds } from "@little-stack/memory";
import type { RunContext } from "./run-context.js";
import { sessionShellHash, type SessionResources } from "./session-resources.js";

const stepConfigHashes = new WeakMap<object, string>();
const noBashHash = sha256Digest(null);

function stepConfigHash(step: LwirStep): string {
  let hash = stepConfigHashes.get(step);
  if (hash === undefined) {
    hash = sha256Digest(step);
    stepConfigHashes.set(step, hash);
  }
  return hash;
}

/** The harness role that executes a step type. */
export function workerRoleFor(step: LwirStep): "worker.ai-generate" | "worker.code-run" | "worker.tool-call" {
  if (step.uses === "ai.generate") return "worker.ai-generate";
  if (step.uses === "code.run") return "worker.code-run";
  return "worker.tool-call";
}

/** The fields of a step path's WorkerManifest, as a plain object (both manifests are built from it). */
function workerManifestFields(run: RunContext, step: LwirStep, stepPath: string, resources: SessionResources): WorkerManifest {
  const ai = step.uses === "ai.generate" ? step.with : undefined;
  return {
    harnessId: run.harnessId,
    workflowDefinitionHash: run.workflowDefinitionHash,
    workflowVersionId: run.workflowVersionId,
    stepPath,
    stepConfigHash: stepConfigHash(step),
    ...(ai === undefined ? {} : { modelSlotId: ai.model }),
    ...(ai?.system === undefined ? {} : { systemPromptHash: sha256Digest(ai.system) }),
    skillsHash: resources.skillsHash,
    allowedToolsHash: run.allowedToolsHash,
    bashCapabilitiesHash: noBashHash,
    memoryStoreIds: memoryStoreIds(resources.memoryMounts),
  };
}

// Both manifests are canonicalSnapshots: canonicalized once, then their hash (manifestHash) and
// their place in the `harness.session.started` payload reuse that text instead of walking it
// twice more per step.

/**
 * The WorkerManifest (seed 000) of one step path: everything the worker's behaviour depends on,
 * its memory stores included (a worker has no shell: `bashCapabilitiesHash` is that of `null`).
 */
export function workerManifestFor(run: RunContext, step: LwirStep, stepPath: string, resources: SessionResources): WorkerManifest {
  return canonicalSnapshot(workerManifestFields(run, step, stepPath, resources)).value;
}

/** The fixer's manifest: the worker's, plus its own model and prompt, and the shell over its mounts. */
export function fixerManifestFor(run: RunContext, step: LwirStep, stepPath: string, resources: SessionResources): FixerManifest {
  const fixer = step.onFailure?.fixer;
  return canonicalSnapshot({
    ...workerManifestFields(run, step, stepPath, resources),
    bashCapabilitiesHash: sessionShellHash(resources),
    fixerModelSlotId: fixer?.model ?? "",
    fixerSystemHash: sha256Digest(fixer?.system ?? ""),
    fixerMaxAttempts: fixer?.maxAttempts ?? 0,
  }).value;
}
