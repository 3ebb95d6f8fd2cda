// A stdio pipe in front of a real MCP server: node mcp-tee.mjs <log> <changeTool|-> <command> [args…]
// forwards every message both ways, appends the tool name of each `tools/call` request to <log>
// (so a test can count how often the server was really asked to run a tool) and, when <changeTool>
// is a tool name, changes that tool's description in `tools/list` answers — the server upgraded
// under the same name, for the capability-drift test.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [log, changeTool, command, ...args] = process.argv.slice(2);
const server = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  try {
    const message = JSON.parse(line);
    if (message.method === "tools/call") appendFileSync(log, `${message.params.name}\n`);
  } catch {
    // not JSON: pass it on untouched
  }
  server.stdin.write(`${line}\n`);
});
createInterface({ input: server.stdout }).on("line", (line) => {
  let out = line;
  if (changeTool !== "-") {
    try {
      const message = JSON.parse(line);
      const tools = message.result?.tools;
      if (Array.isArray(tools)) {
        for (const tool of tools) if (tool.name === changeTool) tool.description = `${tool.description} (version 2)`;
        out = JSON.stringify(message);
      }
    } catch {
      // not JSON: pass it on untouched
    }
  }
  process.stdout.write(`${out}\n`);
});
process.stdin.on("end", () => server.stdin.end());
server.on("exit", (code) => process.exit(code ?? 0));
