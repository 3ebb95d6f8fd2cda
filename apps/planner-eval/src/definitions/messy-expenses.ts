import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { expectEqual, isRecord } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

export const expenseLines = [
  "Taxi airport -> hotel  38,50 EUR",
  "EUR 12.00 lunch w/ client",
  "Hotel Marriott (2 nights): 1.240,00 €",
  "€ 7,5 coffee",
  "Parking 9 EUR",
  "train ticket ..... 64.90EUR",
];

const expectedCents = [3_850, 1_200, 124_000, 750, 900, 6_490];

/** Level 10: parsing messy data in code, with a fixer that repairs the code when it breaks. */
export const messyExpenses: EvalDefinition = {
  name: "messy-expenses",
  level: 10,
  covers: "code.run with onFailure.fixer (self-healing parser)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "finance.parse-expenses",
      description: "Turn the raw expense lines of an expense report (scanned receipts, typed by hand) into amounts in euro cents, in input order, with their total.",
      input: z.object({ employee: z.string(), lines: z.array(z.string()).min(1) }),
      output: z.object({
        employee: z.string(),
        items: z.array(z.object({ description: z.string(), amountCents: z.number().int() })),
        totalCents: z.number().int(),
      }),
      models: [model(models("coder"), { id: "coder", description: "Strong coding model, good at repairing parsing code." })],
      planner: {
        model: models("planner"),
        system:
          "You design our expense workflows. Parse the lines in a code step — amounts must be exact. The lines come from a scanner and their formats vary (comma or dot decimals, thousands separators, € or EUR before or after the amount, numbers in the description). Parsing code that meets a format it did not expect must heal itself: let a model repair the code when the step fails, rather than failing the report.",
      },
    }),
    input: { employee: "Jonas Weber", lines: expenseLines },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    const items = Array.isArray(output.items) ? output.items : [];
    return verdict([
      expectEqual("employee", output.employee, "Jonas Weber"),
      expectEqual(
        "items[].amountCents",
        items.map((item: unknown) => (isRecord(item) ? item.amountCents : undefined)),
        expectedCents,
      ),
      items.some((item: unknown) => !isRecord(item) || typeof item.description !== "string" || item.description.trim().length === 0) && "an item has no description",
      expectEqual("totalCents", output.totalCents, 137_190),
    ]);
  },
};
