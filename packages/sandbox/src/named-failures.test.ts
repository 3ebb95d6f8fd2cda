import { afterAll, describe, expect, it } from "vitest";
import { codeFile, rejectionOf, singleFileOptions } from "./__fixtures__/code-files.js";
import { SandboxGuestError } from "./errors/guest-errors.js";
import { SandboxError } from "./errors/sandbox-error.js";
import { executeCode } from "./execute-code.js";
import { shutdownSandboxWorkers } from "./worker-pool.js";

afterAll(async () => {
  await shutdownSandboxWorkers();
});

describe("named failures", () => {
  it("reports a JavaScript syntax error with file, line and column", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("export async function run() {\n  return 1 +;\n}\n")));
    expect(error.code).toBe("sandbox.syntax_error");
    expect(error.details).toMatchObject({ file: "main.js", line: 2 });
    expect(error.details["column"]).toBeTypeOf("number");
    expect(error.message).toMatch(/^Syntax error in main\.js at line 2, column \d+/);
  });

  it("reports a TypeScript syntax error in an imported file at its own line", async () => {
    const error = await rejectionOf(
      executeCode({
        ...singleFileOptions(""),
        files: {
          "main.ts": codeFile('import { helper } from "./helper.js";\nexport async function run() { return helper(); }\n'),
          "helper.ts": codeFile("export function helper(): number {\n  return 1;\n}\nexport const broken: number = ;\n"),
        },
        entrypoint: "main.ts",
      }),
    );
    expect(error.code).toBe("sandbox.syntax_error");
    expect(error.details).toMatchObject({ file: "helper.ts", line: 4 });
  });

  it("does not fail on a broken file the code never imports", async () => {
    const result = await executeCode({
      ...singleFileOptions(""),
      files: {
        "main.ts": codeFile("export async function run(): Promise<string> { return 'fine'; }\n"),
        "unused.ts": codeFile("export const broken: number = ;\n"),
      },
      entrypoint: "main.ts",
    });
    expect(result.output).toBe("fine");
  });

  it("reports an uncaught guest error with its name, message and guest stack", async () => {
    const source = "function parse(text) {\n  throw new RangeError(`cannot parse ${text}`);\n}\nexport async function run({ input }) {\n  return parse(input.text);\n}\n";
    const error = await rejectionOf(executeCode(singleFileOptions(source, { input: { text: "abc" } })));
    expect(error).toBeInstanceOf(SandboxGuestError);
    expect(error.details).toMatchObject({ name: "RangeError", problem: "cannot parse abc" });
    expect(String(error.details["stack"])).toContain("at parse (main.js:2");
    expect(String(error.details["stack"])).not.toContain("sandbox-prelude");
    expect(error.message).toContain("The code threw RangeError: cannot parse abc (at parse (main.js:2");
  });

  it("reports a missing run export", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("export const main = () => 1;")));
    expect(error.code).toBe("sandbox.invalid_entrypoint");
    expect(error.message).toContain("must export async function run({ input, tools }); it exports main");
  });

  it("reports an import of something that is not a step file", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions('import { x } from "./missing.js";\nexport async function run() { return x; }')));
    expect(error.code).toBe("sandbox.module_not_found");
    expect(error.details).toMatchObject({ importer: "main.js", specifier: "./missing.js" });
  });

  it("reports output that is not JSON with the path to the bad value", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("export async function run() { return { rows: [{ at: new Map() }] }; }")));
    expect(error.code).toBe("sandbox.output_not_json");
    expect(error.details).toMatchObject({ path: "$.rows[0].at", problem: "a Map is not plain JSON" });
    const nothing = await rejectionOf(executeCode(singleFileOptions("export async function run() {}")));
    expect(nothing.code).toBe("sandbox.output_not_json");
    expect(nothing.details).toMatchObject({ path: "$" });
  });

  it("still refuses non-JSON output when the guest tampers with the built-ins the check uses", async () => {
    const error = await rejectionOf(
      executeCode(
        singleFileOptions(`export async function run() {
          Object.getPrototypeOf = () => Object.prototype;
          return new (class Sneaky { toJSON() { return undefined; } })();
        }`),
      ),
    );
    expect(error.code).toBe("sandbox.output_not_json");
  });

  it("reports output larger than maxOutputBytes", async () => {
    const error = await rejectionOf(
      executeCode(singleFileOptions('export async function run() { return "x".repeat(5000); }', { limits: { maxOutputBytes: 1000 } })),
    );
    expect(error.code).toBe("sandbox.output_too_large");
    expect(error.details).toMatchObject({ bytes: 5002, maxOutputBytes: 1000 });
  });

  it("fails an uncaught tool failure naming the tool, with the host error as cause", async () => {
    const hostError = new Error("quota exceeded");
    const error = await rejectionOf(
      executeCode(
        singleFileOptions("export async function run({ tools }) { await tools.search({ q: 'x' }); return 1; }", {
          allowedTools: ["search"],
          callTool: async () => {
            throw hostError;
          },
        }),
      ),
    );
    expect(error.code).toBe("sandbox.tool_call_failed");
    expect(error.details).toMatchObject({ toolName: "search", callIndex: 0 });
    expect(error.message).toContain("tools.search (call 0) failed and the code did not catch it: tools.search failed: quota exceeded");
    expect(error.cause).toBe(hostError);
  });

  it("treats a tool result that is not JSON as a failed tool call", async () => {
    const error = await rejectionOf(
      executeCode(
        singleFileOptions("export async function run({ tools }) { return tools.clock({}); }", {
          allowedTools: ["clock"],
          callTool: async () => ({ at: new Date(0) }),
        }),
      ),
    );
    expect(error.code).toBe("sandbox.tool_call_failed");
    expect(error.message).toContain("returned a value that is not JSON (at $.at, a Date is not plain JSON)");
  });

  it("refuses tool calls past maxToolCalls", async () => {
    const error = await rejectionOf(
      executeCode(
        singleFileOptions("export async function run({ tools }) { for (let i = 0; i < 5; i++) await tools.ping({ i }); }", {
          allowedTools: ["ping"],
          limits: { maxToolCalls: 3 },
        }),
      ),
    );
    expect(error.code).toBe("sandbox.tool_call_limit");
    expect(error.details).toMatchObject({ toolName: "ping", maxToolCalls: 3, toolCallCount: 3 });
  });

  it("reports a run() that awaits something nothing can resolve", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("export async function run() { await new Promise(() => {}); }")));
    expect(error.code).toBe("sandbox.guest_stalled");
  });

  it("stops an execution when the caller aborts", async () => {
    const controller = new AbortController();
    const pending = executeCode(
      singleFileOptions("export async function run({ tools }) { await tools.wait({}); for (;;) {} }", {
        allowedTools: ["wait"],
        signal: controller.signal,
        callTool: async () => {
          controller.abort(new Error("user cancelled"));
          return null;
        },
      }),
    );
    const error = await rejectionOf(pending);
    expect(error.code).toBe("sandbox.aborted");
    const already = await rejectionOf(executeCode(singleFileOptions("export async function run() { return 1; }", { signal: controller.signal })));
    expect(already.code).toBe("sandbox.aborted");
  });

  it("keeps guest console output in the error details, for a fixer", async () => {
    const error = await rejectionOf(
      executeCode(singleFileOptions('export async function run() { console.log("step 1"); console.warn({ n: 2 }); throw new Error("boom"); }')),
    );
    expect(error.details["logs"]).toEqual(["step 1", '[warn] {"n":2}']);
    expect(SandboxError.is(error, "sandbox.guest_threw")).toBe(true);
  });
});
