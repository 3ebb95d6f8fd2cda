import { createToolRegistry, defineWorkflow, model } from "@little-stack/workflow";
import { tool } from "ai";
import { z } from "zod";
import { expectEqual, isRecord } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const Product = z.object({ sku: z.string(), name: z.string(), category: z.string(), stock: z.number().int(), warehouse: z.string() });

const products: Record<string, z.infer<typeof Product>> = {
  "DSK-160": { sku: "DSK-160", name: "Standing desk 160 cm", category: "furniture", stock: 12, warehouse: "Leipzig" },
  "CHR-ERG": { sku: "CHR-ERG", name: "Ergonomic chair", category: "furniture", stock: 0, warehouse: "Leipzig" },
  "MON-27Q": { sku: "MON-27Q", name: "27-inch QHD monitor", category: "electronics", stock: 31, warehouse: "Venlo" },
  "LMP-LED": { sku: "LMP-LED", name: "LED desk lamp", category: "lighting", stock: 0, warehouse: "Venlo" },
  "ARM-DUO": { sku: "ARM-DUO", name: "Dual monitor arm", category: "electronics", stock: 7, warehouse: "Leipzig" },
};

export function catalogueTools() {
  return createToolRegistry({
    lookupProduct: tool({
      description: "Look one product up in the catalogue service (slow: about a second per call). Returns its name, category, units in stock and warehouse.",
      inputSchema: z.object({ sku: z.string() }),
      outputSchema: Product,
      execute: async ({ sku }) => {
        const product = products[sku];
        if (product === undefined) throw new Error(`unknown sku ${sku}`);
        return product;
      },
    }),
  });
}

const skus = ["DSK-160", "CHR-ERG", "MON-27Q", "LMP-LED", "ARM-DUO"];

/** Level 7: fan-out — one tool call per item, in parallel, then a fan-in that assembles the report. */
export const catalogueStockCheck: EvalDefinition = {
  name: "catalogue-stock-check",
  level: 7,
  covers: "parallel (a tool.call per item) → fan-in",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "catalogue.stock-check",
      description: "Check stock for a list of SKUs: every product's name and units in stock, in the order given, and the SKUs that are out of stock.",
      input: z.object({ skus: z.array(z.string()).min(1).max(50) }),
      output: z.object({
        products: z.array(z.object({ sku: z.string(), name: z.string(), stock: z.number().int() })),
        outOfStock: z.array(z.string()).describe("SKUs with stock 0, in input order."),
      }),
      models: [model(models("general"), { id: "general", description: "General-purpose model." })],
      tools: catalogueTools(),
      planner: {
        model: models("planner"),
        system: "You design catalogue workflows. The catalogue service is slow, so look the SKUs up in parallel — at most 3 calls at a time — and build the report deterministically from what it returns.",
      },
    }),
    input: { skus },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    return verdict([
      expectEqual(
        "products",
        output.products,
        skus.map((sku) => ({ sku, name: products[sku]!.name, stock: products[sku]!.stock })),
      ),
      expectEqual("outOfStock", output.outOfStock, ["CHR-ERG", "LMP-LED"]),
    ]);
  },
};
