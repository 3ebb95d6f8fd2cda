// Public surface of @little-stack/mcp: an explicit list of named exports.
export { connectMcpTools, type ConnectedMcpServer, type McpTools } from "./connect-mcp-tools.js";
export type { McpServerConfig, McpTransportConfig } from "./mcp-server-config.js";
export { McpConfigError, McpConnectionError, McpToolError } from "./mcp-errors.js";
