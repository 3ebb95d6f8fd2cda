import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionOf, singleFileOptions } from "./__fixtures__/code-files.js";
import { executeCode } from "./execute-code.js";
import { shutdownSandboxWorkers } from "./worker-pool.js";

let server: Server;
let serverUrl = "";
let requestsSeen = 0;
let scratch = "";

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "sandbox-escape-"));
  server = createServer((_request, response) => {
    requestsSeen += 1;
    response.end("reached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
  await shutdownSandboxWorkers();
});

const hostNames = [
  "process", "require", "module", "exports", "__dirname", "__filename", "Buffer", "fetch", "XMLHttpRequest",
  "WebSocket", "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "WebAssembly", "Deno", "Bun",
  "std", "os", "importScripts", "Worker", "SharedArrayBuffer",
];

describe("escape attempts are refused or harmless", () => {
  it("sees no host globals: no process, require, fetch, timers, env or WebAssembly", async () => {
    const source = `export async function run({ input }) {
      const seen = {};
      for (const name of input.names) seen[name] = typeof globalThis[name];
      return { seen, globals: Object.getOwnPropertyNames(globalThis) };
    }`;
    const result = await executeCode(singleFileOptions(source, { input: { names: hostNames } }));
    const { seen, globals } = result.output as { seen: Record<string, string>; globals: string[] };
    for (const name of hostNames.filter((name) => name !== "SharedArrayBuffer")) expect(seen[name], name).toBe("undefined");
    expect(globals).not.toContain("callTool");
    expect(globals).not.toContain("log");
    expect(globals.filter((name) => /^__/.test(name))).toEqual([]);
  });

  it("cannot reach process or env through process.env, require or the Function constructor", async () => {
    const attempts = [
      "return process.env.HOME;",
      "return require('fs').readFileSync('/etc/passwd', 'utf8');",
      "return Function.prototype.constructor('return typeof process + typeof require')();",
      "return globalThis.constructor.constructor('return this')().process.env;",
      "return (async () => {}).constructor('return typeof fetch')();",
      "return [].constructor.constructor('return this')() === globalThis;",
    ];
    const outcomes: string[] = [];
    for (const body of attempts) {
      try {
        const result = await executeCode(singleFileOptions(`export async function run() { ${body} }`));
        outcomes.push(`ok:${JSON.stringify(await Promise.resolve(result.output))}`);
      } catch (error) {
        outcomes.push(`${(error as { code: string }).code}:${String((error as { details: { name?: string } }).details.name)}`);
      }
    }
    expect(outcomes).toEqual([
      "sandbox.guest_threw:ReferenceError",
      "sandbox.guest_threw:ReferenceError",
      'ok:"undefinedundefined"',
      "sandbox.guest_threw:TypeError",
      'ok:"undefined"',
      "ok:true",
    ]);
  });

  it("cannot import fs, node:fs, std/os or absolute paths, statically or dynamically", async () => {
    for (const specifier of ["fs", "node:fs", "std", "os", "/etc/passwd", "file:///etc/passwd"]) {
      const dynamic = await rejectionOf(executeCode(singleFileOptions(`export async function run() { return await import(${JSON.stringify(specifier)}); }`)));
      expect(dynamic.code, specifier).toBe("sandbox.module_not_found");
    }
    const staticImport = await rejectionOf(executeCode(singleFileOptions('import { writeFileSync } from "node:fs";\nexport async function run() { writeFileSync("x", "y"); }')));
    expect(staticImport.code).toBe("sandbox.module_not_found");
    expect(staticImport.message).toContain('Cannot import "node:fs" from "main.js"');
  });

  it("cannot write files on the host", async () => {
    const target = join(scratch, "written-by-guest.txt");
    const source = `export async function run({ input }) {
      const tries = [];
      try { const fs = await import("fs"); fs.writeFileSync(input.target, "x"); tries.push("fs wrote"); } catch (error) { tries.push(String(error.message)); }
      try { const std = await import("std"); std.open(input.target, "w").puts("x"); tries.push("std wrote"); } catch (error) { tries.push(String(error.message)); }
      try { process.binding("fs"); tries.push("binding"); } catch (error) { tries.push(error.name); }
      return tries;
    }`;
    const result = await executeCode(singleFileOptions(source, { input: { target } }));
    expect(result.output).toEqual([
      expect.stringContaining('Cannot import "fs"'),
      expect.stringContaining('Cannot import "std"'),
      "ReferenceError",
    ]);
    expect(existsSync(target)).toBe(false);
  });

  it("cannot reach the network: no fetch, no sockets; a real local server sees no request", async () => {
    const source = `export async function run({ input }) {
      const tries = [];
      for (const attempt of [
        () => fetch(input.url),
        () => new WebSocket(input.url),
        () => new XMLHttpRequest(),
        () => import(input.url),
      ]) {
        try { await attempt(); tries.push("reached"); } catch (error) { tries.push(error.name); }
      }
      return tries;
    }`;
    const result = await executeCode(singleFileOptions(source, { input: { url: serverUrl } }));
    expect(result.output).toEqual(["ReferenceError", "ReferenceError", "ReferenceError", "Error"]);
    expect(requestsSeen).toBe(0);
  });

  it("cannot pollute host prototypes through its own realm or its output", async () => {
    const result = await executeCode(
      singleFileOptions(`export async function run() {
        Object.prototype.polluted = "guest";
        Array.prototype.push = () => { throw new Error("hijacked"); };
        return JSON.parse('{"__proto__": {"polluted": "output"}, "ok": true}');
      }`),
    );
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.getPrototypeOf(result.output)).toBe(Object.prototype);
    expect((result.output as Record<string, unknown>)["ok"]).toBe(true);
    const list: number[] = [];
    list.push(1);
    expect(list).toEqual([1]);
  });

  it("can reach only the tools in allowedTools; others are refused without reaching the host", async () => {
    const called: string[] = [];
    const options = {
      allowedTools: ["read"],
      callTool: async ({ toolName }: { toolName: string }) => {
        called.push(toolName);
        return "data";
      },
    };
    const listed = await executeCode(
      singleFileOptions(
        `export async function run({ tools }) {
          let refused = "";
          try { await tools.deleteEverything({}); } catch (error) { refused = error.name + ": " + error.message; }
          return { keys: Object.keys(tools), read: await tools.read({}), refused, viaConstructor: typeof tools.constructor };
        }`,
        options,
      ),
    );
    expect(listed.output).toEqual({
      keys: ["read"],
      read: "data",
      refused: "ToolNotAllowedError: tools.deleteEverything is not available to this step; allowed tools: read (the plan's permissions.tools).",
      viaConstructor: "function",
    });
    const uncaught = await rejectionOf(executeCode(singleFileOptions("export async function run({ tools }) { return tools['rm -rf']({}); }", options)));
    expect(uncaught.code).toBe("sandbox.tool_not_allowed");
    expect(uncaught.details).toMatchObject({ toolName: "rm -rf", allowedTools: ["read"] });
    expect(called).toEqual(["read"]);
  });
});
