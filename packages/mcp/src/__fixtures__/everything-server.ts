import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "../mcp-server-config.js";

const require = createRequire(import.meta.url);
/** The real MCP reference servers from npm (devDependencies of this package). */
export const everythingServerScript = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");
const teeScript = fileURLToPath(new URL("./mcp-tee.mjs", import.meta.url));

/**
 * server-everything over stdio, behind the tee that logs each tools/call to `callLog` (and, with
 * `changeTool`, changes that tool's description in the tool list the client sees).
 */
export function everythingOverStdio(callLog: string, changeTool?: string): McpServerConfig {
  return { transport: { type: "stdio", command: process.execPath, args: [teeScript, callLog, changeTool ?? "-", process.execPath, everythingServerScript, "stdio"] } };
}
