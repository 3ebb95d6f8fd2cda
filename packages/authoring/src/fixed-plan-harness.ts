import { sha256Digest } from "@little-stack/canonical";
import { openHarnessSession, recorderForContext, type Harness, type HarnessContext, type HarnessManifest } from "@little-stack/harness";
import type { LwirDocument } from "@little-stack/lwir";

/** The id a fixed-plan planner puts in manifests. */
export const fixedPlanHarnessId = "fixedPlanHarness@0.1.0";

type FixedPlanContext = HarnessContext & { readonly manifest?: HarnessManifest; readonly sessionKey?: string };

/**
 * A planner harness that answers every plan task with the given LWIR and never calls a model.
 * With a manifest in the context (the compiler passes one) it still records a planner session
 * (`harness.session.started` / `.completed` with the LWIR hash), so a resumed run checks the
 * manifest like any other planner; other task kinds are delegated to the default harness.
 */
export function fixedPlanHarness(lwir: LwirDocument): Harness & { readonly id: string } {
  const lwirHash = sha256Digest(lwir);
  return {
    id: fixedPlanHarnessId,
    async run(task, baseCtx) {
      if (task.kind !== "plan") return { kind: "delegate_to_default" };
      const ctx = baseCtx as FixedPlanContext;
      if (ctx.manifest !== undefined) {
        const session = await openHarnessSession({
          recorder: recorderForContext(ctx),
          scope: ctx.scope,
          sessionKey: ctx.sessionKey ?? "plan",
          task: { kind: "plan" },
          manifest: ctx.manifest,
        });
        await session.complete({ output: { lwirHash } });
      }
      return { kind: "plan", lwir };
    },
  };
}
