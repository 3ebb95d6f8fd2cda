// The tools of the CLI use: `little run --tools ./tools.mjs`. Each call is appended to
// $PACK_CHECK_TOOL_LOG; with PACK_CHECK_KILL=1 the process SIGKILLs itself inside `shout`.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";

const log = (name) => appendFileSync(process.env.PACK_CHECK_TOOL_LOG, `${name}\n`);

export const tools = {
  greet: tool({
    description: "Greets a name.",
    inputSchema: jsonSchema({ type: "object", required: ["name"], properties: { name: { type: "string" } }, additionalProperties: false }),
    execute: async ({ name }) => {
      log("greet");
      return { greeting: `Hello, ${name}` };
    },
  }),
  shout: tool({
    description: "Shouts a text.",
    inputSchema: jsonSchema({ type: "object", required: ["text"], properties: { text: { type: "string" } }, additionalProperties: false }),
    execute: async ({ text }) => {
      log("shout");
      if (process.env.PACK_CHECK_KILL === "1") process.kill(process.pid, "SIGKILL");
      return { loud: `${text.toUpperCase()}!` };
    },
  }),
};
