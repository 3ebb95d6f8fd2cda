/** How to reach one MCP server: a local process over stdio, or a Streamable HTTP endpoint. */
export type McpTransportConfig =
  | {
      readonly type: "stdio";
      /** The program to start (`process.execPath`, `npx`, a server binary …). */
      readonly command: string;
      readonly args?: readonly string[];
      /** The server's whole environment (default: the MCP client's default environment). */
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      /** Streamable HTTP (the MCP transport of 2025-03-26 and later). */
      readonly type: "http";
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

export type McpServerConfig = {
  readonly transport: McpTransportConfig;
  /** Prepended to each tool name of this server (`"fs_"` → `fs_read_file`); default none. */
  readonly prefix?: string;
  /** Only these tools of the server (by their server-side name); default all it lists. */
  readonly tools?: readonly string[];
};
