// The custom-harness use, compiled by tsc against the packed types and run with node: a fixed-plan
// workflow whose tool.call steps go through the harness README's durable harness (./harness.ts is
// that README block, written here by the pack check), on localWorld.
//   node dist/run.js <dataDir> kill    — SIGKILLs itself inside the second tool call
//   node dist/run.js <dataDir> resume  — same run id: prints the result as JSON
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tool } from "ai";
import { z } from "zod";
import { createToolRegistry, defineWorkflow, localWorld, runWorkflow, type LwirDocument } from "@little-stack/workflow";
import { toolCallHarness } from "./harness.js";

const [dataDir, mode] = process.argv.slice(2) as [string, "kill" | "resume"];
const toolLog = join(dataDir, "tool-calls.log");
const plan = JSON.parse(readFileSync(new URL("../greeting.lwir.json", import.meta.url), "utf8")) as LwirDocument;

const tools = createToolRegistry({
  greet: tool({
    description: "Greets a name.",
    inputSchema: z.object({ name: z.string() }),
    execute: async ({ name }) => {
      appendFileSync(toolLog, "greet\n");
      return { greeting: `Hello, ${name}` };
    },
  }),
  shout: tool({
    description: "Shouts a text.",
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      appendFileSync(toolLog, "shout\n");
      if (mode === "kill") process.kill(process.pid, "SIGKILL");
      return { loud: `${text.toUpperCase()}!` };
    },
  }),
});

const greeting = defineWorkflow({
  id: "pack-check.greeting",
  input: z.object({ name: z.string() }),
  output: z.object({ loud: z.string() }),
  tools: ["greet", "shout"],
  plan,
  worker: { harness: toolCallHarness },
});

const world = localWorld({ dataDir });
try {
  const result = await runWorkflow(greeting, { name: "Ada" }, { world, tools, runId: "run_packcheckharness1" });
  const loud: string = result.output.loud;
  const toolEvents = result.events
    .filter((event) => event.type === "harness.tool_call.succeeded")
    .map((event) => {
      const { caller, toolName } = event.payload as { caller: string; toolName: string };
      return { caller, toolName };
    });
  console.log(JSON.stringify({ status: result.status, loud, toolEvents }));
} finally {
  await world.close();
}
