import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createToolRegistry, type ToolRegistry } from "@little-stack/harness";
import type { Tool, ToolSet } from "ai";
import { McpConfigError, McpConnectionError, McpToolError } from "./mcp-errors.js";
import type { McpServerConfig, McpTransportConfig } from "./mcp-server-config.js";

export type ConnectedMcpServer = {
  readonly name: string;
  /** What the server reported about itself when the client connected. */
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** Workflow tool names this server contributes, sorted. */
  readonly toolNames: readonly string[];
};

/** The tools of one or more MCP servers, joined into one tool registry. Close it when done. */
export type McpTools = {
  readonly registry: ToolRegistry;
  readonly servers: readonly ConnectedMcpServer[];
  /** Closes every client (a stdio server process ends with it). */
  close(): Promise<void>;
};

/**
 * Connects to MCP servers through the AI SDK's MCP client and returns their tools as one tool
 * registry: pass it (or `mergeToolRegistries(yours, mcp.registry)`) as `runWorkflow`'s `tools`.
 * Each tool keeps the server's description and JSON input schema, so the registry's descriptor
 * digests — hashed into the capability manifest — change when the server's tool list does, and
 * a resumed run then fails with capability drift instead of calling a different tool. A result
 * with `isError: true` is thrown as `McpToolError`, so the step fails (and is recorded) as any
 * tool failure.
 */
export async function connectMcpTools(options: { readonly servers: Readonly<Record<string, McpServerConfig>> }): Promise<McpTools> {
  const entries = Object.entries(options.servers);
  if (entries.length === 0) throw new McpConfigError({ server: "(none)", field: "servers", problem: "is empty", fix: "Name at least one server: { servers: { everything: { transport: { type: \"stdio\", command, args } } } }." });
  const clients: MCPClient[] = [];
  const close = async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  };
  try {
    const tools: Record<string, Tool> = {};
    const servers: ConnectedMcpServer[] = [];
    for (const [server, config] of entries) {
      checkConfig(server, config);
      let client: MCPClient;
      let listed: ToolSet;
      try {
        client = await createMCPClient({ transport: transportFor(config.transport), clientName: "little-workflow" });
        clients.push(client);
        listed = (await client.tools()) as ToolSet;
      } catch (cause) {
        throw new McpConnectionError({ server, transport: config.transport.type, cause });
      }
      const wanted = config.tools ?? Object.keys(listed).sort();
      const toolNames: string[] = [];
      for (const toolName of wanted) {
        const tool = listed[toolName];
        if (tool === undefined) {
          throw new McpConfigError({ server, field: "tools", problem: `names "${toolName}", which the server does not list (it lists ${Object.keys(listed).sort().join(", ")})`, fix: "Use the server's own tool names." });
        }
        const name = `${config.prefix ?? ""}${toolName}`;
        tools[name] = failOnErrorResult(tool, server, toolName);
        toolNames.push(name);
      }
      servers.push({ name: server, serverInfo: { name: client.serverInfo.name, version: client.serverInfo.version }, toolNames: toolNames.sort() });
    }
    return { registry: createToolRegistry(tools), servers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function checkConfig(server: string, config: McpServerConfig): void {
  const transport = config.transport as { type?: unknown } | undefined;
  if (transport?.type !== "stdio" && transport?.type !== "http") {
    throw new McpConfigError({
      server,
      field: "transport.type",
      problem: `is ${JSON.stringify(transport?.type)}`,
      fix: 'Use "stdio" (a local server process) or "http" (Streamable HTTP); the older SSE transport is not supported.',
    });
  }
  if (config.prefix !== undefined && !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(config.prefix)) {
    throw new McpConfigError({ server, field: "prefix", problem: `is ${JSON.stringify(config.prefix)}`, fix: "Use letters, digits, '_' and '-', starting with a letter or '_'." });
  }
}

function transportFor(config: McpTransportConfig) {
  if (config.type === "http") return { type: "http" as const, url: config.url, ...(config.headers === undefined ? {} : { headers: { ...config.headers } }) };
  return new Experimental_StdioMCPTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    ...(config.env === undefined ? {} : { env: { ...config.env } }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: "ignore",
  });
}

// MCP reports a failed call as a result with isError: true; a workflow tool fails by throwing.
function failOnErrorResult(tool: Tool, server: string, toolName: string): Tool {
  const execute = tool.execute;
  if (execute === undefined) return tool;
  return {
    ...tool,
    execute: async (input: unknown, options: Parameters<NonNullable<Tool["execute"]>>[1]) => {
      const result = (await execute.call(tool, input, options)) as { isError?: unknown; content?: unknown };
      if (result?.isError === true) throw new McpToolError({ server, tool: toolName, message: textOf(result.content) });
      return result;
    },
  } as Tool;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "the server gave no message";
  const texts = content.filter((part): part is { type: "text"; text: string } => typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text" && typeof (part as { text?: unknown }).text === "string").map((part) => part.text);
  return texts.length > 0 ? texts.join(" ") : "the server gave no message";
}
