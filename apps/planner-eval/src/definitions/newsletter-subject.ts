import { defineWorkflow, model, type SuperviseDecision, type SuperviseRequest } from "@little-stack/workflow";
import { z } from "zod";
import { isRecord, mentions } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const maxLength = 50;

/**
 * The brand team's checker. It knows one house rule the brief leaves out — a subject carries a
 * concrete figure — so a first cycle may well be rejected and the next one told why.
 */
export function brandCheck(subject: unknown): readonly string[] {
  if (typeof subject !== "string" || subject.trim().length === 0) return ["there is no subject line"];
  return [
    subject.length > maxLength ? `it has ${subject.length} characters, at most ${maxLength} are allowed` : undefined,
    mentions(subject, "Ledgerly") ? undefined : "it must name Ledgerly",
    /\d/.test(subject) ? undefined : "house style: a subject line carries one concrete figure (a number, a percentage, a version)",
    subject.includes("!") ? "no exclamation marks" : undefined,
    subject === subject.toUpperCase() ? "no all-caps subjects" : undefined,
  ].filter((problem): problem is string => problem !== undefined);
}

function supervise(request: SuperviseRequest): SuperviseDecision {
  const last = request.cycles.at(-1);
  if (last === undefined || last.status !== "completed") return { kind: "continue", promptNote: `The last cycle failed (${last?.summary ?? "no summary"}). Produce a plan that completes.` };
  const subject = isRecord(last.output) ? last.output.subject : undefined;
  const problems = brandCheck(subject);
  if (problems.length === 0) return { kind: "done", finalOutput: last.output };
  return { kind: "continue", promptNote: `The brand checker rejected ${JSON.stringify(subject)}: ${problems.join("; ")}. Rewrite it to pass.` };
}

/** Level 11: the outer loop — plan and run again while a supervisor rejects the result. */
export const newsletterSubject: EvalDefinition = {
  name: "newsletter-subject",
  level: 11,
  covers: "outer loop (planner.maxOuterCycles + supervise)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "marketing.newsletter-subject",
      description: `Write the subject line of this month's customer newsletter: at most ${maxLength} characters, naming Ledgerly, about the month's main news.`,
      input: z.object({ month: z.string(), news: z.array(z.string()).min(1) }),
      output: z.object({ subject: z.string() }),
      models: [model(models("copywriter"), { id: "copywriter", description: "Creative model for short marketing copy." })],
      planner: {
        model: models("planner"),
        system:
          "You design our newsletter workflows. After each run the brand team's checker reviews the subject line; when it rejects one you plan again, and the outer-loop context tells you why it was rejected — follow its note exactly.",
        maxOuterCycles: 3,
        supervise,
      },
    }),
    input: {
      month: "March 2025",
      news: ["Ledgerly 4.2 adds CSV export for invoices", "Invoice PDFs now show the customer's VAT number", "Android app: the empty-ledger crash is fixed"],
    },
  }),
  check: (output) => {
    const subject = isRecord(output) ? output.subject : undefined;
    return verdict(brandCheck(subject).map((problem) => `subject ${JSON.stringify(subject)}: ${problem}`));
  },
};
