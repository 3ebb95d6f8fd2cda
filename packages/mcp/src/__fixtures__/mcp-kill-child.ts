// A workflow whose tool.call and code.run steps use MCP tools of server-everything (over stdio,
// behind the tee that counts tools/call requests), run in a real child process:
//   mcp-kill-child.ts <dataDir> <callLog> kill     — SIGKILLs itself in the last (local) step
//   mcp-kill-child.ts <dataDir> <callLog> resume   — same run id; prints { status, output }
//   mcp-kill-child.ts <dataDir> <callLog> changed  — resumes while the server lists a changed echo tool
import { sha256Hex } from "@little-stack/canonical";
import { jsonSchema, tool } from "ai";
import { createToolRegistry, defineWorkflow, localWorld, mergeToolRegistries, runWorkflow, LittleWorkflowError, type LwirDocument } from "@little-stack/workflow";
import { connectMcpTools } from "../index.js";
import { everythingOverStdio } from "./everything-server.js";

const [dataDir, callLog, mode] = process.argv.slice(2) as [string, string, "kill" | "resume" | "changed"];

const code = 'export async function run({ tools }) { const result = await tools["get-sum"]({ a: 2, b: 3 }); return { sum: result.content[0].text }; }';
const textResult = { type: "object", required: ["content"], properties: { content: { type: "array", minItems: 1, items: { type: "object", required: ["type", "text"], properties: { type: { type: "string" }, text: { type: "string" } } } } } };
const plan: LwirDocument = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "mcp.kill-resume" },
  input: { schema: { type: "object", required: ["message"], properties: { message: { type: "string" } } } },
  output: { schema: { type: "object", required: ["echo", "sum"], properties: { echo: { type: "string" }, sum: { type: "string" } } } },
  permissions: { models: [], tools: ["echo", "get-sum", "finish"] },
  steps: [
    { id: "say", uses: "tool.call", needs: [], with: { tool: "echo", args: { message: "{{ input.message }}" } }, output: { mode: "object", schema: textResult } },
    {
      id: "add",
      uses: "code.run",
      needs: ["say"],
      with: {
        entrypoint: "main.ts",
        files: { "main.ts": { content: code, sha256: `sha256:${sha256Hex(code)}` } },
        sandbox: { network: "deny" },
      },
      output: { mode: "object", schema: { type: "object", required: ["sum"], properties: { sum: { type: "string" } } } },
    },
    { id: "finish", uses: "tool.call", needs: ["say", "add"], with: { tool: "finish", args: { echo: "{{ steps.say.output.content[0].text }}", sum: "{{ steps.add.output.sum }}" } }, output: { mode: "object", schema: { type: "object", required: ["echo", "sum"], properties: { echo: { type: "string" }, sum: { type: "string" } } } } },
  ],
} as unknown as LwirDocument;

const local = createToolRegistry({
  finish: tool({
    description: "Returns its input; dies first when the run is to be killed.",
    inputSchema: jsonSchema<{ echo: string; sum: string }>({ type: "object", required: ["echo", "sum"], properties: { echo: { type: "string" }, sum: { type: "string" } } }),
    execute: async (input) => {
      if (mode === "kill") process.kill(process.pid, "SIGKILL");
      return input;
    },
  }),
});

const mcp = await connectMcpTools({
  servers: { everything: everythingOverStdio(callLog, mode === "changed" ? "echo" : undefined) },
});
const workflow = defineWorkflow({ id: "mcp.kill-resume", plan, tools: ["echo", "get-sum", "finish"] });
const world = localWorld({ dataDir });
try {
  const result = await runWorkflow(workflow, { message: "hello mcp" }, { world, tools: mergeToolRegistries([mcp.registry, local]), runId: "run_mcpkillresume01" });
  console.log(JSON.stringify({ status: result.status, output: result.output }));
} catch (error) {
  const causeCode = (error as { causeCode?: unknown }).causeCode;
  console.log(JSON.stringify({ error: LittleWorkflowError.is(error) ? { name: error.name, code: error.code, causeCode, message: error.message } : String(error) }));
} finally {
  await world.close();
  await mcp.close();
}
