import { createToolRegistry, defineWorkflow, model } from "@little-stack/workflow";
import { tool } from "ai";
import { z } from "zod";
import { expectEqual, expectText, isRecord } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

/** Deterministic record ids: the same email always gets the same id (what check expects). */
export function recordNumber(text: string): number {
  let hash = 0;
  for (const character of text) hash = (hash * 31 + character.charCodeAt(0)) % 9000;
  return 1000 + hash;
}

export function routerTools() {
  return createToolRegistry({
    createSalesLead: tool({
      description: "Create a lead in the CRM for the sales team. Returns the lead id (LEAD-…).",
      inputSchema: z.object({ contactEmail: z.string(), company: z.string(), interest: z.string().describe("What they want, one sentence.") }),
      outputSchema: z.object({ leadId: z.string() }),
      execute: async ({ contactEmail }) => ({ leadId: `LEAD-${recordNumber(contactEmail)}` }),
    }),
    createSupportTicket: tool({
      description: "Open a ticket in the support desk. Returns the ticket id (SUP-…).",
      inputSchema: z.object({ customerEmail: z.string(), subject: z.string(), summary: z.string() }),
      outputSchema: z.object({ ticketId: z.string() }),
      execute: async ({ customerEmail }) => ({ ticketId: `SUP-${recordNumber(customerEmail)}` }),
    }),
    openBillingCase: tool({
      description: "Open a case for the billing team (refunds, invoices, failed payments). Returns the case id (BIL-…).",
      inputSchema: z.object({ customerEmail: z.string(), issue: z.string() }),
      outputSchema: z.object({ caseId: z.string() }),
      execute: async ({ customerEmail }) => ({ caseId: `BIL-${recordNumber(customerEmail)}` }),
    }),
  });
}

const sender = "procurement@northwind-logistics.example";

/** Level 4: classify, then a decision routes to the one action that fits. */
export const emailRouter: EvalDefinition = {
  name: "email-router",
  level: 4,
  covers: "ai.generate → decision → one of three routes (each calling a tool)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "inbox.route-email",
      description: "Route an inbound email to sales, support or billing, record it with that team's tool, and acknowledge it.",
      input: z.object({ from: z.string(), subject: z.string(), body: z.string() }),
      output: z.object({
        route: z.enum(["sales", "support", "billing"]),
        reference: z.string().describe("The id the team's tool returned (LEAD-…, SUP-… or BIL-…)."),
        acknowledgement: z.string().describe("One or two sentences to send back to the sender."),
      }),
      models: [
        model(models("router"), { id: "router", description: "Fast model for classification and short extraction." }),
        model(models("writer"), { id: "writer", description: "Writes short, polite acknowledgements." }),
      ],
      tools: routerTools(),
      planner: {
        model: models("planner"),
        system:
          "You design our inbound email router. Every email goes to exactly one team: sales (prospects, pricing, demos), support (something does not work) or billing (charges, refunds, invoices). Record it with that team's tool — only that one — and answer with the route, the id the tool returned and a short acknowledgement for the sender.",
      },
    }),
    input: {
      from: sender,
      subject: "Pricing for 40 seats",
      body: "Hello, we are evaluating Ledgerly for our finance team of about 40 people. Could you send pricing for the Business plan and tell us whether you offer annual invoicing? Best regards, Jonas Weber, Northwind Logistics",
    },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    return verdict([expectEqual("route", output.route, "sales"), expectEqual("reference", output.reference, `LEAD-${recordNumber(sender)}`), expectText("acknowledgement", output.acknowledgement)]);
  },
};
