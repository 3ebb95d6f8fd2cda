import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { isRecord, mentions } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const ReleaseNotes = z.object({
  product: z.string().describe("Product name as customers know it."),
  version: z.string().describe("Semantic version of the release, e.g. 4.2.0."),
  changes: z.array(z.string()).min(1).describe("One line per change, as engineers wrote them."),
});

const Announcement = z.object({
  headline: z.string().max(90).describe("One line for the changelog page."),
  summary: z.string().max(600).describe("Two to four sentences for customers, plain language."),
});

const keyChanges = ["csv", "crash", "vat", "ios 14"];

/** Level 1: one ai.generate step turns engineering notes into a customer announcement. */
export const releaseNotesSummary: EvalDefinition = {
  name: "release-notes-summary",
  level: 1,
  covers: "ai.generate (object output)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "release.announce",
      description: "Turn a release's engineering change list into a short customer-facing announcement (headline and summary).",
      input: ReleaseNotes,
      output: Announcement,
      models: [model(models("writer"), { id: "writer", description: "General-purpose writing model for short, factual customer copy." })],
      planner: {
        model: models("planner"),
        system: "You design workflows for our release tooling. Keep plans minimal: a single model call is right when the task is one piece of writing. Customers read the result, so no internal jargon.",
      },
    }),
    input: {
      product: "Ledgerly",
      version: "4.2.0",
      changes: [
        "Added CSV export for invoices (invoices list > Export)",
        "Fixed a crash when opening an empty ledger on Android",
        "Invoice PDFs now include the customer's VAT number",
        "Dropped support for iOS 14",
      ],
    },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    const headline = typeof output.headline === "string" ? output.headline : "";
    const summary = typeof output.summary === "string" ? output.summary : "";
    const text = `${headline} ${summary}`;
    const covered = keyChanges.filter((term) => mentions(text, term));
    return verdict([
      headline.trim().length === 0 && "headline is empty",
      summary.trim().length < 40 && `summary is too short to summarize anything: ${JSON.stringify(summary)}`,
      !mentions(text, "4.2") && "neither headline nor summary names the version (4.2)",
      covered.length < 2 && `the announcement mentions ${covered.length} of the 4 changes (csv, crash, vat, ios 14): ${JSON.stringify(text)}`,
    ]);
  },
};
