import { sha256Digest } from "@little-stack/canonical";
import type { ResolvedModel, ToolRegistry } from "@little-stack/harness";
import { RunCapabilityDriftError } from "../errors/run-integrity-errors.js";
import type { RunCapabilities } from "../events/runtime-event-types.js";

/** What this process offers the run: tool descriptor digests, model slots and the harness id. */
export async function captureCapabilities(options: {
  readonly harnessId: string;
  readonly tools: ToolRegistry;
  readonly models: ReadonlyMap<string, ResolvedModel>;
}): Promise<RunCapabilities> {
  const snapshot = await options.tools.describe();
  const tools: Record<string, string> = {};
  for (const descriptor of snapshot.tools) tools[descriptor.name] = descriptor.digest;
  const models: Record<string, string> = {};
  for (const slot of [...options.models.keys()].sort()) {
    const model = options.models.get(slot)!;
    models[slot] = `${model.provider}:${model.modelId}`;
  }
  const body = { harnessId: options.harnessId, tools, models };
  return { ...body, digest: sha256Digest(body) };
}

/** Human-readable differences between the pinned and the current capabilities ([] = none). */
export function capabilityDrift(stored: RunCapabilities, current: RunCapabilities): string[] {
  const lines: string[] = [];
  if (stored.harnessId !== current.harnessId) lines.push(`harness: ${stored.harnessId} → ${current.harnessId}`);
  for (const [kind, before, after] of [
    ["tool", stored.tools, current.tools],
    ["model slot", stored.models, current.models],
  ] as const) {
    for (const name of Object.keys(before)) {
      if (!Object.hasOwn(after, name)) lines.push(`${kind} "${name}" was removed`);
      else if (before[name] !== after[name]) lines.push(`${kind} "${name}" changed: ${before[name]} → ${after[name]}`);
    }
    for (const name of Object.keys(after)) if (!Object.hasOwn(before, name)) lines.push(`${kind} "${name}" was added`);
  }
  return lines;
}

/**
 * Throws `RunCapabilityDriftError` when a resumed run is given other capabilities than it pinned
 * at start. Called before the resume writes anything, so the mistake costs nothing: the same
 * command with the right tools, models and harness resumes the run.
 */
export function requireSameCapabilities(options: { readonly runId: string; readonly pinned: RunCapabilities; readonly current: RunCapabilities }): void {
  if (options.pinned.digest === options.current.digest) return;
  const changes = capabilityDrift(options.pinned, options.current);
  if (changes.length > 0) throw new RunCapabilityDriftError({ runId: options.runId, changes });
}
