// The step-cost benchmark's tools module for `little run --tools` (JavaScript: the built CLI imports it).
import { jsonSchema, tool } from "ai";

export const tools = {
  noop: tool({
    description: "Returns its input.",
    inputSchema: jsonSchema({ type: "object", properties: { i: { type: "number" } }, required: ["i"] }),
    execute: async (input) => input,
  }),
};
