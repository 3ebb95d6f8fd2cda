import { afterAll, describe, expect, it } from "vitest";
import { rejectionOf, singleFileOptions } from "./__fixtures__/code-files.js";
import { errorTextLimits } from "./error-text-limits.js";
import { executeCode } from "./execute-code.js";
import { shutdownSandboxWorkers } from "./worker-pool.js";

afterAll(async () => {
  await shutdownSandboxWorkers();
});

const mebibyte = 1024 * 1024;
const limits = { memoryBytes: 128 * mebibyte, timeoutMs: 20_000 };

async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakRssBytes: number }> {
  let peakRssBytes = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    return { result, peakRssBytes: Math.max(peakRssBytes, process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
}

/** Every text of the error (message, name and stack details) within the limits plus the marker. */
function expectBounded(error: Error & { details: Record<string, unknown> }): void {
  expect(error.message.length).toBeLessThan(errorTextLimits.message + 1000);
  for (const key of ["name", "problem", "stack"] as const) {
    const value = error.details[key];
    if (typeof value === "string") expect(value.length, key).toBeLessThan(errorTextLimits.message + 200);
  }
}

describe("error texts from guest code are bounded where they leave the sandbox", () => {
  it("cuts a 50 MiB message to its start with a marker naming its length, host RSS under 300 MB", async () => {
    const { result: error, peakRssBytes } = await peakRssDuring(() =>
      rejectionOf(executeCode(singleFileOptions('export async function run() { throw new Error("x".repeat(50 * 1024 * 1024)); }', { limits }))),
    );
    expect(error.code).toBe("sandbox.guest_threw");
    expectBounded(error);
    expect(error.message.includes(`… [truncated: ${50 * mebibyte} characters in all]`)).toBe(true);
    expect(/^x{16384}… \[truncated/.test(error.details["problem"] as string)).toBe(true);
    expect(peakRssBytes).toBeLessThan(300 * mebibyte);
  });

  it("cuts a huge name and stack, and a huge message thrown while the module loads", async () => {
    const named = await rejectionOf(
      executeCode(
        singleFileOptions('export async function run() { const e = new Error("m"); e.name = "N".repeat(20 * 1024 * 1024); e.stack = "s".repeat(20 * 1024 * 1024); throw e; }', { limits }),
      ),
    );
    expect(named.code).toBe("sandbox.guest_threw");
    expectBounded(named);
    expect((named.details["name"] as string).length).toBeLessThan(errorTextLimits.name + 100);
    const atLoad = await rejectionOf(executeCode(singleFileOptions('throw new Error("y".repeat(30 * 1024 * 1024));\nexport async function run() { return 1; }', { limits })));
    expect(atLoad.code).toBe("sandbox.guest_threw");
    expectBounded(atLoad);
    expect(atLoad.message.includes("[truncated: 31457280 characters in all]")).toBe(true);
  });

  it("cuts a huge non-Error value and a host tool's huge failure text as the guest sees it", async () => {
    const thrown = await rejectionOf(executeCode(singleFileOptions('export async function run() { throw { big: "z".repeat(5 * 1024 * 1024) }; }', { limits })));
    expect(thrown.code).toBe("sandbox.guest_threw");
    expectBounded(thrown);
    const seen = await executeCode(
      singleFileOptions("export async function run({ tools }) { try { await tools.fail({}); } catch (error) { return error.message.length; } }", {
        allowedTools: ["fail"],
        callTool: async () => {
          throw new Error("h".repeat(20 * mebibyte));
        },
        limits,
      }),
    );
    expect(seen.output as number).toBeLessThan(errorTextLimits.message + 100);
  });

  it("reports a Proxy whose ownKeys exhausts memory as out of memory, not as a thrown null", async () => {
    for (const source of [
      'export async function run() { return new Proxy({}, { ownKeys() { const keys = []; for (let i = 0; ; i++) keys.push("k" + i); } }); }',
      'export async function run() { return new Proxy({}, { ownKeys() { return new Array(1e9).fill("x"); } }); }',
    ]) {
      const error = await rejectionOf(executeCode(singleFileOptions(source, { limits: { memoryBytes: 64 * mebibyte, timeoutMs: 20_000 } })));
      expect(error.code, error.message.slice(0, 300)).toBe("sandbox.out_of_memory");
    }
    // A guest that really throws null is still told apart.
    const thrownNull = await rejectionOf(executeCode(singleFileOptions("export async function run() { throw null; }")));
    expect(thrownNull.code).toBe("sandbox.guest_threw");
    expect(thrownNull.message).toContain("a non-Error value was thrown: null");
  });
});
