import { validateLwir, type LwirFinding } from "@little-stack/lwir";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

/** A finding as the planner's tools return it (severity dropped: every finding is an error). */
export type PlanToolFinding = Pick<LwirFinding, "code" | "path" | "message">;

/** Some models send the document as a JSON string instead of an object: accept both. */
export function submittedDocument(lwir: unknown): { readonly document: unknown } | { readonly problem: string } {
  if (typeof lwir !== "string") return { document: lwir };
  try {
    return { document: JSON.parse(lwir) as unknown };
  } catch (error) {
    return { problem: `lwir is a string that is not JSON (${(error as Error).message}); pass the document as an object.` };
  }
}

export function compactFindings(findings: readonly LwirFinding[]): PlanToolFinding[] {
  return findings.map((finding) => ({ code: finding.code, path: finding.path, message: finding.message }));
}

/** The document a submission stands for: parsed if it came as text, then completed. */
export function completedDocument(lwir: unknown, ctx: WorkflowHarnessContext): unknown {
  const submitted = submittedDocument(lwir);
  if ("problem" in submitted) return lwir;
  return ctx.planning?.completeWorkflow === undefined ? submitted.document : ctx.planning.completeWorkflow(submitted.document);
}

/**
 * What `check_workflow` and `submit_workflow` both do with a submission: parse it if it came as
 * text, complete what it may leave out (ctx.planning.completeWorkflow), validate it
 * (`validateLwir`, then the compiler's binding pass). `document` is the completed document.
 */
export async function evaluateSubmission(lwir: unknown, ctx: WorkflowHarnessContext): Promise<{ readonly document: unknown; readonly findings: readonly PlanToolFinding[] }> {
  const submitted = submittedDocument(lwir);
  if ("problem" in submitted) return { document: lwir, findings: [{ code: "plan.lwir_not_json", path: "$", message: submitted.problem }] };
  const document = completedDocument(submitted.document, ctx);
  const checked = validateLwir(document);
  if (!checked.valid) return { document, findings: compactFindings(checked.findings) };
  const extra = ctx.planning?.validateWorkflow === undefined ? [] : await ctx.planning.validateWorkflow(document);
  return { document, findings: compactFindings(extra) };
}
