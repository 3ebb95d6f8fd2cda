import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const Ticket = z.object({
  ticketId: z.string(),
  subject: z.string(),
  body: z.string(),
  customerPlan: z.enum(["free", "pro", "business"]),
});

const queues = ["billing", "bug", "account_access", "feature_request"] as const;

/** Level 2: a choice output — the answer is one of four queue names. */
export const ticketTriage: EvalDefinition = {
  name: "ticket-triage",
  level: 2,
  covers: "ai.generate (choice output)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "support.triage",
      description: "Route a support ticket to exactly one queue: billing, bug, account_access or feature_request.",
      input: Ticket,
      output: { kind: "choice", values: [...queues] },
      models: [model(models("triage"), { id: "triage", description: "Fast, inexpensive model for short classification tasks." })],
      planner: {
        model: models("planner"),
        system: "You design our support triage. Money questions (charges, refunds, invoices) go to billing; something broken goes to bug; login, password and 2FA problems go to account_access; requests for new behaviour go to feature_request.",
      },
    }),
    input: {
      ticketId: "T-88213",
      subject: "Charged twice for March",
      body: "Hi, my card was charged $49 twice on March 3rd for the Pro plan. Please refund one of the two charges. Thanks, Dana",
      customerPlan: "pro",
    },
  }),
  check: (output) => verdict([output !== "billing" && `expected the billing queue, got ${JSON.stringify(output)}`]),
};
