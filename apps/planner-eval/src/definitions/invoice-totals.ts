import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { expectEqual, isRecord } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const Invoice = z.object({
  invoiceId: z.string(),
  currency: z.enum(["EUR", "USD", "GBP"]),
  taxRatePercent: z.number().min(0).max(100),
  lines: z
    .array(
      z.object({
        description: z.string(),
        quantity: z.number().int().min(1),
        unitPriceCents: z.number().int().min(0),
        discountPercent: z.number().min(0).max(100).optional(),
      }),
    )
    .min(1),
});

const Totals = z.object({
  invoiceId: z.string(),
  lineCount: z.number().int(),
  subtotalCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
});

/** Level 5: exact arithmetic on the input, which belongs in code. */
export const invoiceTotals: EvalDefinition = {
  name: "invoice-totals",
  level: 5,
  covers: "code.run (arithmetic on the workflow input)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "finance.invoice-totals",
      description:
        "Compute an invoice's totals. Each line: quantity × unitPriceCents, minus its discountPercent, rounded half up to whole cents. Subtotal: the sum of the rounded lines. Tax: subtotal × taxRatePercent / 100, rounded half up. Total: subtotal + tax.",
      input: Invoice,
      output: Totals,
      models: [model(models("general"), { id: "general", description: "General-purpose model." })],
      planner: { model: models("planner"), system: "You design finance workflows. Money is integer cents and every figure must be exact and reproducible." },
    }),
    input: {
      invoiceId: "INV-2025-0117",
      currency: "EUR",
      taxRatePercent: 19,
      lines: [
        { description: "Standing desk", quantity: 2, unitPriceCents: 34_900, discountPercent: 10 },
        { description: "Monitor arm", quantity: 3, unitPriceCents: 8_950 },
        { description: "Cable tray", quantity: 5, unitPriceCents: 1_299, discountPercent: 15 },
      ],
    },
  }),
  // 62,820 + 26,850 + 5,521 (5,520.75 rounded) = 95,191; tax 19 % = 18,086.29 → 18,086.
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    return verdict([
      expectEqual("invoiceId", output.invoiceId, "INV-2025-0117"),
      expectEqual("lineCount", output.lineCount, 3),
      expectEqual("subtotalCents", output.subtotalCents, 95_191),
      expectEqual("taxCents", output.taxCents, 18_086),
      expectEqual("totalCents", output.totalCents, 113_277),
    ]);
  },
};
