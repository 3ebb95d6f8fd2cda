import { afterAll, describe, expect, it } from "vitest";
import { rejectionOf, singleFileOptions } from "./__fixtures__/code-files.js";
import { executeCode } from "./execute-code.js";
import { shutdownSandboxWorkers } from "./worker-pool.js";

afterAll(async () => {
  await shutdownSandboxWorkers();
});

const mebibyte = 1024 * 1024;

/** Samples host RSS on the host event loop (which keeps turning while a guest runs) and returns the peak. */
async function peakRssDuring<T>(work: () => Promise<T>): Promise<{ result: T; peakRssBytes: number; samples: number }> {
  let peakRssBytes = process.memoryUsage().rss;
  let samples = 0;
  const sampler = setInterval(() => {
    samples += 1;
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    return { result, peakRssBytes: Math.max(peakRssBytes, process.memoryUsage().rss), samples };
  } finally {
    clearInterval(sampler);
  }
}

describe("time limits", () => {
  const loops: Record<string, string> = {
    "a loop before any await": "export async function run() { for (;;) {} }",
    "a loop after an awaited tool call": "export async function run({ tools }) { await tools.tick({}); while (true) {} }",
    "a loop after a plain await": "export async function run() { await null; await Promise.resolve(); for (;;) {} }",
    "a loop at module top level": "for (;;) {}\nexport async function run() { return 1; }",
    "a loop that tries to swallow the interrupt": "export async function run() { for (;;) { try { for (;;) {} } catch (error) {} } }",
    "a loop in a promise chain": "export async function run() { const spin = () => Promise.resolve().then(spin); return spin(); }",
    "catastrophic regular-expression backtracking": "export async function run() { return /(a+)+$/.test('a'.repeat(40) + 'b'); }",
  };
  for (const [name, source] of Object.entries(loops)) {
    it(`ends ${name} at the deadline with a timeout`, async () => {
      const error = await rejectionOf(executeCode(singleFileOptions(source, { allowedTools: ["tick"], limits: { timeoutMs: 300 } })));
      expect(error.code).toBe("sandbox.timeout");
      expect(error.details).toMatchObject({ timeoutMs: 300 });
    });
  }

  it("ends an execution whose tool call never returns (the host deadline terminates the worker)", async () => {
    const error = await rejectionOf(
      executeCode(
        singleFileOptions("export async function run({ tools }) { return tools.hang({}); }", {
          allowedTools: ["hang"],
          callTool: () => new Promise(() => undefined),
          limits: { timeoutMs: 200, deadlineGraceMs: 50 },
        }),
      ),
    );
    expect(error.code).toBe("sandbox.timeout");
  });

  it("keeps other executions in the same host making progress while a runaway guest spins", async () => {
    // The runaway only ends when aborted, so the ordering below does not depend on machine speed.
    const controller = new AbortController();
    let runawaySettled = false;
    const runaway = rejectionOf(
      executeCode(singleFileOptions("export async function run() { for (;;) {} }", { signal: controller.signal, limits: { timeoutMs: 60_000 } })),
    ).finally(() => {
      runawaySettled = true;
    });
    let hostTicks = 0;
    const ticker = setInterval(() => {
      hostTicks += 1;
    }, 1);
    const quick = await executeCode(singleFileOptions("export async function run({ input }) { return input * 2; }", { input: 21 }));
    const second = await executeCode(singleFileOptions("export async function run({ input }) { return input + 1; }", { input: 1 }));
    const ticksWhileSpinning = hostTicks;
    const runawayWasStillRunning = !runawaySettled;
    clearInterval(ticker);
    controller.abort();
    expect(quick.output).toBe(42);
    expect(second.output).toBe(2);
    expect(runawayWasStillRunning).toBe(true);
    expect(ticksWhileSpinning).toBeGreaterThan(0);
    expect((await runaway).code).toBe("sandbox.aborted");
  });
});

describe("memory limits", () => {
  const bombs: Record<string, string> = {
    "an array of objects": "export async function run() { const items = []; for (;;) items.push({ index: items.length, label: 'item' + items.length }); }",
    "typed arrays": "export async function run() { const chunks = []; for (;;) chunks.push(new Uint8Array(1024 * 1024)); }",
    "one huge ArrayBuffer": "export async function run() { return new ArrayBuffer(1024 * 1024 * 1024).byteLength; }",
    "a doubling string": "export async function run() { let text = 'ab'; for (;;) text = text.repeat(2); }",
    "many distinct strings": "export async function run() { const parts = []; for (let i = 0; ; i++) parts.push('x'.repeat(100000) + i); }",
  };
  for (const [name, source] of Object.entries(bombs)) {
    it(`ends a memory bomb with ${name} in a clean out-of-memory failure, host RSS under 300 MB`, async () => {
      const { result: error, peakRssBytes } = await peakRssDuring(() =>
        rejectionOf(executeCode(singleFileOptions(source, { limits: { memoryBytes: 64 * mebibyte, timeoutMs: 20_000 } }))),
      );
      expect(error.code).toBe("sandbox.out_of_memory");
      expect(error.details).toMatchObject({ memoryBytes: 64 * mebibyte });
      expect(peakRssBytes).toBeLessThan(300 * mebibyte);
    });
  }

  it("leaves the host able to run the next execution after a memory bomb", async () => {
    await rejectionOf(executeCode(singleFileOptions("export async function run() { const a = []; for (;;) a.push(new Float64Array(65536)); }")));
    const next = await executeCode(singleFileOptions("export async function run() { return 'still fine'; }"));
    expect(next.output).toBe("still fine");
  });

  it("turns runaway recursion into a guest stack overflow, not a host crash", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("function deeper(n) { return deeper(n + 1) + 1; }\nexport async function run() { return deeper(0); }")));
    expect(error.code).toBe("sandbox.guest_threw");
    expect(error.details).toMatchObject({ name: "InternalError", problem: "stack overflow" });
  });
});
