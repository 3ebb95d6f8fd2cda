// The --tools module of the damage fault suite: every execution appends `<toolCallId> <pid>` to
// $LITTLE_TEST_TOOL_LOG, so the suite can tell which recorded (acknowledged) calls ran again.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";

function logged(toolCallId: string): void {
  const log = process.env["LITTLE_TEST_TOOL_LOG"];
  if (log !== undefined && log !== "") appendFileSync(log, `${toolCallId} ${process.pid}\n`);
}

const idSchema = jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false });

export const tools = {
  lookup: tool({
    description: "Looks up a bonus for an id.",
    inputSchema: idSchema,
    execute: async ({ id }, { toolCallId }) => {
      logged(toolCallId);
      return { id, bonus: id.length };
    },
  }),
  bigger: tool({
    description: "Returns a large document for an id (stored as an artifact, not inline).",
    inputSchema: idSchema,
    execute: async ({ id }, { toolCallId }) => {
      logged(toolCallId);
      return { id: `${id}-big`, body: `${id}:`.repeat(150_000) };
    },
  }),
};
