// A --tools module for the follow tests: `gate` writes "<id> <pid>" to $LITTLE_TEST_GATE_DIR/entered
// and waits until $LITTLE_TEST_GATE_DIR/open exists, so a test can kill the writer mid-run.
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { jsonSchema, tool } from "ai";

export const tools = {
  gate: tool({
    description: "Waits for the test to open the gate.",
    inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }),
    execute: async ({ id }) => {
      const dir = process.env["LITTLE_TEST_GATE_DIR"] ?? "";
      appendFileSync(join(dir, "entered"), `${id} ${process.pid}\n`);
      while (!existsSync(join(dir, "open"))) await new Promise((resolve) => setTimeout(resolve, 20));
      return { id, passed: true };
    },
  }),
};
