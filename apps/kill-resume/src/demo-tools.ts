// The --tools module of the kill-resume demo. Every call waits KILL_RESUME_DELAY_MS (default
// 300) so a kill can land mid-flight, then appends `<tool> <callId> <pid> <value>` to
// $KILL_RESUME_LOG: the demo reads it to tell what ran in which process.
import { appendFileSync } from "node:fs";
import { jsonSchema, tool } from "ai";

const delayMs = Number(process.env["KILL_RESUME_DELAY_MS"] ?? 300);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function log(options: { toolName: string; callId: string; value: unknown }): void {
  const file = process.env["KILL_RESUME_LOG"];
  if (file !== undefined && file !== "") appendFileSync(file, `${options.toolName} ${options.callId} ${process.pid} ${JSON.stringify(options.value)}\n`);
}

export const tools = {
  record: tool({
    description: "Records a labelled value and returns it.",
    inputSchema: jsonSchema<{ label: string; value?: unknown }>({ type: "object", properties: { label: { type: "string" }, value: {} }, required: ["label"] }),
    execute: async ({ label, value }, { toolCallId }) => {
      await sleep(delayMs);
      log({ toolName: `record:${label}`, callId: toolCallId, value: value ?? null });
      return { label, value: value ?? null };
    },
  }),
  bump: tool({
    description: "Adds one to n.",
    inputSchema: jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
    execute: async ({ n }, { toolCallId }) => {
      await sleep(delayMs);
      log({ toolName: "bump", callId: toolCallId, value: n + 1 });
      return { n: n + 1 };
    },
  }),
};
