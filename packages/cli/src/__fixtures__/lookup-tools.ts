// A --tools module for the CLI tests: one tool that appends `<id> <pid>` to $LITTLE_TEST_TOOL_LOG,
// so a test can count executions across processes. A call for an id ending in
// $LITTLE_TEST_BLOCK_SUFFIX never returns, so a test can SIGKILL `little run` with the calls
// before it committed.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";

export const tools = {
  lookup: tool({
    description: "Looks up a bonus for an id.",
    inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false }),
    execute: async ({ id }) => {
      const log = process.env["LITTLE_TEST_TOOL_LOG"];
      if (log !== undefined && log !== "") appendFileSync(log, `${id} ${process.pid}\n`);
      const suffix = process.env["LITTLE_TEST_BLOCK_SUFFIX"];
      if (suffix !== undefined && suffix !== "" && id.endsWith(suffix)) await new Promise(() => setInterval(() => undefined, 1000));
      return { id, bonus: id.length };
    },
  }),
};
