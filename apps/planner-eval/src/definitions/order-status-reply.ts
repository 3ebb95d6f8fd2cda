import { createToolRegistry, defineWorkflow, model } from "@little-stack/workflow";
import { tool } from "ai";
import { z } from "zod";
import { expectEqual, isRecord, mentions } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const OrderStatus = z.enum(["processing", "shipped", "delivered", "cancelled"]);

const Order = z.object({
  orderId: z.string(),
  status: OrderStatus,
  carrier: z.string().optional(),
  trackingNumber: z.string().optional(),
  estimatedDelivery: z.string().describe("YYYY-MM-DD").optional(),
  items: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
});

const orders: Record<string, z.infer<typeof Order>> = {
  "ORD-20417": { orderId: "ORD-20417", status: "shipped", carrier: "DHL", trackingNumber: "JD014600003828", estimatedDelivery: "2025-03-14", items: [{ name: "Standing desk, oak, 160 cm", quantity: 1 }] },
  "ORD-20388": { orderId: "ORD-20388", status: "delivered", carrier: "UPS", trackingNumber: "1Z999AA10123456784", estimatedDelivery: "2025-03-05", items: [{ name: "Monitor arm", quantity: 2 }] },
};

export function orderTools() {
  return createToolRegistry({
    getOrder: tool({
      description: "Look up an order in the shop's order system by its id (ORD-…). Returns its status and, once shipped, the carrier, tracking number and estimated delivery date.",
      inputSchema: z.object({ orderId: z.string().describe("The order id, e.g. ORD-20417.") }),
      outputSchema: Order,
      execute: async ({ orderId }) => {
        const order = orders[orderId];
        if (order === undefined) throw new Error(`no order ${orderId}`);
        return order;
      },
    }),
  });
}

/** Level 3: a tool.call feeds an ai.generate step. */
export const orderStatusReply: EvalDefinition = {
  name: "order-status-reply",
  level: 3,
  covers: "tool.call → ai.generate",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "shop.order-status-reply",
      description: "Answer a customer's 'where is my order?' message from the order system's data.",
      input: z.object({ orderId: z.string(), customerName: z.string(), message: z.string() }),
      output: z.object({ orderId: z.string(), status: OrderStatus, reply: z.string().describe("The reply to send, 2-4 sentences.") }),
      models: [model(models("writer"), { id: "writer", description: "Writes short, friendly customer-service replies." })],
      tools: orderTools(),
      planner: {
        model: models("planner"),
        system: "You design customer-service workflows for our web shop. Facts about an order (status, carrier, tracking, dates) come only from getOrder — never let a model guess them. The reply must give the customer what they need to follow the parcel.",
      },
    }),
    input: { orderId: "ORD-20417", customerName: "Amira", message: "Hi, where is my parcel? I ordered the standing desk last week and haven't heard anything." },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    const reply = typeof output.reply === "string" ? output.reply : "";
    return verdict([
      expectEqual("orderId", output.orderId, "ORD-20417"),
      expectEqual("status", output.status, "shipped"),
      !(mentions(reply, "JD014600003828") || mentions(reply, "DHL")) && `the reply names neither the carrier (DHL) nor the tracking number: ${JSON.stringify(reply)}`,
    ]);
  },
};
