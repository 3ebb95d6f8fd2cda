import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeRegisteredTool } from "@little-stack/harness";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcpTools } from "./connect-mcp-tools.js";
import { everythingOverStdio, everythingServerScript } from "./__fixtures__/everything-server.js";
import { McpConfigError, McpConnectionError, McpToolError } from "./mcp-errors.js";

const dir = mkdtempSync(join(tmpdir(), "little-mcp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("connectMcpTools over stdio (server-everything, a real server process)", () => {
  it("joins the server's tools to a registry with their descriptions and JSON input schemas, and calls them", async () => {
    const callLog = join(dir, "stdio-calls.log");
    const mcp = await connectMcpTools({ servers: { everything: everythingOverStdio(callLog) } });
    try {
      expect(mcp.servers).toEqual([{ name: "everything", serverInfo: { name: "mcp-servers/everything", version: expect.any(String) }, toolNames: expect.arrayContaining(["echo", "get-sum"]) }]);
      expect(mcp.registry.names).toEqual(mcp.servers[0]!.toolNames);
      const snapshot = await mcp.registry.describe();
      const sum = snapshot.tools.find((tool) => tool.name === "get-sum");
      expect(sum?.inputSchema).toMatchObject({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } } });
      expect(sum?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const result = await executeRegisteredTool({ registry: mcp.registry, toolName: "get-sum", args: { a: 2, b: 40 } });
      expect(result).toEqual({ content: [{ type: "text", text: "The sum of 2 and 40 is 42." }], isError: false });
      expect(readFileSync(callLog, "utf8")).toBe("get-sum\n");
    } finally {
      await mcp.close();
    }
  });

  it("prefixes names and keeps only the listed tools; a tool the server lacks is refused by name", async () => {
    const mcp = await connectMcpTools({ servers: { everything: { ...everythingOverStdio(join(dir, "unused.log")), prefix: "ev_", tools: ["echo"] } } });
    try {
      expect(mcp.registry.names).toEqual(["ev_echo"]);
      expect(await executeRegisteredTool({ registry: mcp.registry, toolName: "ev_echo", args: { message: "hi" } })).toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
    } finally {
      await mcp.close();
    }
    const error = await connectMcpTools({ servers: { everything: { ...everythingOverStdio(join(dir, "unused.log")), tools: ["no-such-tool"] } } }).catch((caught: unknown) => caught);
    expect(McpConfigError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/tools names "no-such-tool", which the server does not list \(it lists .*echo/);
  });

  it("throws an isError result as McpToolError naming the server, the tool and the server's message", async () => {
    const mcp = await connectMcpTools({ servers: { everything: everythingOverStdio(join(dir, "error.log")) } });
    try {
      // Called past the registry's own input check: the server itself refuses the arguments.
      const execute = mcp.registry.get("get-sum").execute!;
      const error = await Promise.resolve(execute({ a: "x", b: 1 }, { toolCallId: "t1", messages: [] })).catch((caught: unknown) => caught);
      expect(McpToolError.is(error, "mcp.tool_error")).toBe(true);
      expect((error as Error).message).toMatch(/^MCP tool "get-sum" of server "everything" failed: MCP error -32602: Input validation error/);
    } finally {
      await mcp.close();
    }
  });

  it("names the server and transport when a server does not start, and refuses an unsupported transport", async () => {
    const error = await connectMcpTools({ servers: { broken: { transport: { type: "stdio", command: process.execPath, args: ["-e", "process.exit(3)"] } } } }).catch((caught: unknown) => caught);
    expect(McpConnectionError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Cannot connect to MCP server "broken" over stdio: /);
    const sse = await connectMcpTools({ servers: { old: { transport: { type: "sse", url: "http://127.0.0.1:1/sse" } as never } } }).catch((caught: unknown) => caught);
    expect(McpConfigError.is(sse)).toBe(true);
    expect((sse as Error).message).toMatch(/transport\.type is "sse".*the older SSE transport is not supported/);
  });
});

describe("connectMcpTools over Streamable HTTP (server-everything streamableHttp on 127.0.0.1)", () => {
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill("SIGKILL");
  });

  it("lists and calls the tools of an HTTP server", async () => {
    const port = await freePort();
    server = spawn(process.execPath, [everythingServerScript, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      let seen = "";
      server!.stderr!.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes("listening on port")) resolve();
      });
      server!.on("exit", (code) => reject(new Error(`server-everything exited ${code}: ${seen}`)));
    });
    const mcp = await connectMcpTools({ servers: { remote: { transport: { type: "http", url: `http://127.0.0.1:${port}/mcp` } } } });
    try {
      expect(mcp.registry.names).toContain("echo");
      expect(await executeRegisteredTool({ registry: mcp.registry, toolName: "echo", args: { message: "over http" } })).toMatchObject({ content: [{ type: "text", text: "Echo: over http" }] });
    } finally {
      await mcp.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
