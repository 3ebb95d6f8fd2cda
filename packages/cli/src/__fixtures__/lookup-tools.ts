// A --tools module for the CLI tests: one tool that appends `<id> <pid>` to $LITTLE_TEST_TOOL_LOG,
// so a test can count executions across processes.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";

export const tools = {
  lookup: tool({
    description: "Looks up a bonus for an id.",
    inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }),
    execute: async ({ id }) => {
      const log = process.env["LITTLE_TEST_TOOL_LOG"];
      if (log !== undefined && log !== "") appendFileSync(log, `${id} ${process.pid}\n`);
      return { id, bonus: id.length };
    },
  }),
};
