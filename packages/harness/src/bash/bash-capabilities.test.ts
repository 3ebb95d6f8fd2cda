import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowBashCapabilities } from "../contract/mounts.js";
import { bashCapabilityProblem, checkBashCapabilities } from "./bash-capabilities.js";
import { createBashTool } from "./bash-tool.js";
import { BashToolConfigError } from "./bash-tool-config-error.js";

// A real HTTP server on 127.0.0.1; every request it gets is logged, so "refused" means "never sent".
let server: Server;
let origin: string;
const requests: string[] = [];
let scratch: string;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "lw-bash-net-")));
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === "/public/hello") response.end("hello from the allowed prefix");
    else if (request.url === "/public/to-private") response.writeHead(302, { location: "http://10.20.30.40/internal" }).end();
    else if (request.url === "/public/to-other") response.writeHead(302, { location: `${origin}/other` }).end();
    else response.end("should not have been reached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

function shell(capabilities: WorkflowBashCapabilities) {
  return createBashTool({ mounts: [{ mountPath: "/mnt/scratch/own", hostPath: scratch, mode: "rw" }], capabilities });
}

describe("bash.network: curl reaches only what the workflow allows", () => {
  it("serves an allowed prefix, refuses another path, and refuses a redirect to a private address without sending anything there", async () => {
    requests.length = 0;
    const bash = shell({ network: { allow: [`${origin}/public/`], denyPrivateRanges: false } });
    const allowed = await bash.execute({ cmd: `curl -sS ${origin}/public/hello` });
    expect(allowed).toMatchObject({ exitCode: 0, stdout: "hello from the allowed prefix" });

    const other = await bash.execute({ cmd: `curl -sS ${origin}/other` });
    expect(other.exitCode).not.toBe(0);
    expect(other.stderr).toMatch(/not allowed|denied/i);

    const toPrivate = await bash.execute({ cmd: `curl -sSL ${origin}/public/to-private` });
    expect(toPrivate.exitCode).not.toBe(0);
    expect(toPrivate.stdout).not.toContain("should not have been reached");
    expect(toPrivate.stderr).toMatch(/Redirect target not in allow-list|not allowed|denied/i);
    const toOther = await bash.execute({ cmd: `curl -sSL ${origin}/public/to-other` });
    expect(toOther.exitCode).not.toBe(0);
    expect(toOther.stderr).toMatch(/Redirect target not in allow-list|not allowed|denied/i);
    // The server saw the allowed requests and the redirecting ones, never /other.
    expect(requests).toEqual(["GET /public/hello", "GET /public/to-private", "GET /public/to-other"]);
  });

  it("denies private and loopback ranges by default, even for an allowed prefix", async () => {
    requests.length = 0;
    const bash = shell({ network: { allow: [`${origin}/public/`] } });
    const result = await bash.execute({ cmd: `curl -sS ${origin}/public/hello` });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/private|denied|not allowed/i);
    expect(requests).toEqual([]);
  });

  it("allows GET and HEAD unless methods says otherwise", async () => {
    requests.length = 0;
    const readOnly = shell({ network: { allow: [`${origin}/public/`], denyPrivateRanges: false } });
    expect((await readOnly.execute({ cmd: `curl -sS -X POST -d x=1 ${origin}/public/hello` })).exitCode).not.toBe(0);
    const posting = shell({ network: { allow: [`${origin}/public/`], methods: ["GET", "POST"], denyPrivateRanges: false } });
    expect(await posting.execute({ cmd: `curl -sS -X POST -d x=1 ${origin}/public/hello` })).toMatchObject({ exitCode: 0, stdout: "hello from the allowed prefix" });
    expect(requests).toEqual(["POST /public/hello"]);
  });

  it("has no network at all without the capability", async () => {
    requests.length = 0;
    const bash = createBashTool({ mounts: [{ mountPath: "/mnt/scratch/own", hostPath: scratch, mode: "rw" }] });
    expect((await bash.execute({ cmd: `curl -sS ${origin}/public/hello` })).exitCode).not.toBe(0);
    expect(requests).toEqual([]);
  });
});

describe("bash.maxCommands and bash.timeoutMs bound the session's shell", () => {
  it("refuses the call after maxCommands calls", async () => {
    const bash = shell({ maxCommands: 2 });
    expect(await bash.execute({ cmd: "echo one" })).toMatchObject({ exitCode: 0, stdout: "one\n" });
    expect(await bash.execute({ cmd: "echo two" })).toMatchObject({ exitCode: 0, stdout: "two\n" });
    const third = await bash.execute({ cmd: "echo three" });
    expect(third).toMatchObject({ exitCode: 1, stdout: "" });
    expect(third.stderr).toContain("this session may run 2 commands (bash.maxCommands) and has run them all");
  });

  it("caps each call at timeoutMs, whatever the call asks for", async () => {
    const bash = shell({ timeoutMs: 200 });
    expect(bash.limits.timeoutMs).toBe(200);
    const result = await bash.execute({ cmd: "sleep 10", timeoutMs: 60_000 });
    expect(result.exitCode).toBe(124);
    expect(result.stderr).toContain("timed out after 200 ms");
  });
});

describe("checkBashCapabilities refuses what the shell cannot honour", () => {
  it.each([
    [{ network: { allow: ["https://api.example.com/"], headers: {} } }, ".network.headers", /not a network option/],
    [{ network: { allow: [] } }, ".network.allow", /non-empty array/],
    [{ network: { allow: ["ftp://files.example.com/"] } }, ".network.allow[0]", /only http and https/],
    [{ network: { allow: ["api.example.com"] } }, ".network.allow[0]", /not an absolute URL/],
    [{ network: { allow: ["https://api.example.com/"], methods: ["get"] } }, ".network.methods[0]", /upper case/],
    [{ network: { allow: ["https://api.example.com/"], denyPrivateRanges: "yes" } }, ".network.denyPrivateRanges", /boolean/],
    [{ maxCommands: 0 }, ".maxCommands", /positive integer/],
    [{ timeoutMs: 1.5 }, ".timeoutMs", /positive integer/],
    [{ sudo: true }, ".sudo", /not a bash capability/],
  ])("%j → %s", (value, path, problem) => {
    expect(bashCapabilityProblem(value)).toEqual({ path, problem: expect.stringMatching(problem) });
    expect(() => checkBashCapabilities(value)).toThrow(BashToolConfigError);
  });

  it("accepts the seed's example", () => {
    const seed = { network: { allow: ["https://api.example.com/"], methods: ["GET", "HEAD"], denyPrivateRanges: true } };
    expect(checkBashCapabilities(seed)).toBe(seed);
  });
});
