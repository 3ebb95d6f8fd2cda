import { LittleWorkflowError } from "@little-stack/canonical";

/** A server configuration the MCP client cannot use (or an option it cannot honour). */
export class McpConfigError extends LittleWorkflowError {
  constructor(options: { readonly server: string; readonly field: string; readonly problem: string; readonly fix: string }) {
    super("mcp.invalid_config", `MCP server "${options.server}": ${options.field} ${options.problem}. ${options.fix}`, { details: { ...options } });
  }
}

/** The MCP client could not connect to a server, or could not list its tools. */
export class McpConnectionError extends LittleWorkflowError {
  constructor(options: { readonly server: string; readonly transport: string; readonly cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super("mcp.connection_failed", `Cannot connect to MCP server "${options.server}" over ${options.transport}: ${reason}. Check that the server starts (stdio: its command and args) or listens (http: its URL).`, {
      cause: options.cause,
      details: { server: options.server, transport: options.transport },
    });
  }
}

/** An MCP tool answered with `isError: true`: the call failed on the server. */
export class McpToolError extends LittleWorkflowError {
  constructor(options: { readonly server: string; readonly tool: string; readonly message: string }) {
    super("mcp.tool_error", `MCP tool "${options.tool}" of server "${options.server}" failed: ${options.message}`, { details: { ...options } });
  }
}
