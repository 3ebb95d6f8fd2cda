import { afterAll, describe, expect, it } from "vitest";
import { codeFile, rejectionOf, singleFileOptions } from "./__fixtures__/code-files.js";
import { executeCode, type ToolCallRequest } from "./execute-code.js";
import { shutdownSandboxWorkers, warmUpSandbox } from "./worker-pool.js";

afterAll(async () => {
  await shutdownSandboxWorkers();
});

const tsEntry = `import type { Item } from "./lib/types.js";
import { total } from "./lib/math.js";

type Tools = { price(args: { sku: string }): Promise<{ cents: number }> };

export async function run({ input, tools }: { input: { items: Item[] }; tools: Tools }): Promise<{ total: number; priced: number[] }> {
  const priced: number[] = [];
  for (const item of input.items) {
    const { cents } = await tools.price({ sku: item.sku });
    priced.push(cents * item.quantity);
  }
  console.log("priced", priced.length, "items");
  return { total: total(priced), priced };
}
`;

describe("executeCode", () => {
  it("runs a TypeScript entrypoint that imports its own files and calls an allowed tool", async () => {
    const calls: ToolCallRequest[] = [];
    const result = await executeCode({
      files: {
        "main.ts": codeFile(tsEntry),
        "lib/math.ts": codeFile("export function total(values: number[]): number { return values.reduce((a, b) => a + b, 0); }\n"),
        "lib/types.ts": codeFile("export type Item = { sku: string; quantity: number };\n"),
      },
      entrypoint: "main.ts",
      input: { items: [{ sku: "a", quantity: 2 }, { sku: "b", quantity: 1 }] },
      determinismSeed: "run_1/price",
      allowedTools: ["price"],
      callTool: async (call) => {
        calls.push(call);
        return { cents: (call.args as { sku: string }).sku === "a" ? 100 : 250 };
      },
    });
    expect(result.output).toEqual({ total: 450, priced: [200, 250] });
    expect(result.toolCallCount).toBe(2);
    expect(calls).toEqual([
      { toolName: "price", args: { sku: "a" }, callIndex: 0 },
      { toolName: "price", args: { sku: "b" }, callIndex: 1 },
    ]);
    expect(result.logs).toEqual(["priced 2 items"]);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("makes Date and Math.random a function of the determinism seed, so a replay computes the same thing", async () => {
    const source = `export async function run() {
      return { random: [Math.random(), Math.random()], now: Date.now(), iso: new Date().toISOString(), later: Date.now() };
    }`;
    const first = await executeCode(singleFileOptions(source, { determinismSeed: "run_1/steps/score" }));
    const replay = await executeCode(singleFileOptions(source, { determinismSeed: "run_1/steps/score" }));
    const other = await executeCode(singleFileOptions(source, { determinismSeed: "run_2/steps/score" }));
    expect(replay.output).toEqual(first.output);
    expect((other.output as { random: number[] }).random).not.toEqual((first.output as { random: number[] }).random);
    expect(first.output).toMatchObject({ now: Date.UTC(2020, 0, 1), iso: "2020-01-01T00:00:00.001Z", later: Date.UTC(2020, 0, 1) + 2 });
    const random = (first.output as { random: number[] }).random;
    for (const value of random) expect(value >= 0 && value < 1).toBe(true);
    const clocked = await executeCode(singleFileOptions("export async function run() { return Date.now(); }", { clockStartMs: 1_700_000_000_000 }));
    expect(clocked.output).toBe(1_700_000_000_000);
  });

  it("replays tool results from the host's record: same callIndex order, same output, no real call", async () => {
    const source = `export async function run({ tools }) {
      const [a, b] = await Promise.all([tools.fetchA({}), tools.fetchB({ n: 1 })]);
      const c = await tools.fetchA({ after: a.value });
      return a.value + b.value + c.value;
    }`;
    const recorded = new Map<number, unknown>();
    let live = 0;
    const first = await executeCode(
      singleFileOptions(source, {
        allowedTools: ["fetchA", "fetchB"],
        callTool: async ({ callIndex, toolName }) => {
          live += 1;
          const value = { value: toolName === "fetchA" ? 10 * (callIndex + 1) : 1 };
          recorded.set(callIndex, value);
          return value;
        },
      }),
    );
    const replayed = await executeCode(
      singleFileOptions(source, {
        allowedTools: ["fetchA", "fetchB"],
        callTool: async ({ callIndex }) => recorded.get(callIndex),
      }),
    );
    expect(live).toBe(3);
    expect(first.output).toBe(10 + 1 + 30);
    expect(replayed.output).toBe(first.output);
  });

  it("passes tool failures into the guest as rejected promises the code can catch", async () => {
    const result = await executeCode(
      singleFileOptions(
        `export async function run({ tools }) {
          try { await tools.flaky({}); return "no error"; }
          catch (error) { return { name: error.name, message: error.message }; }
        }`,
        { allowedTools: ["flaky"], callTool: async () => Promise.reject(new Error("upstream 503")) },
      ),
    );
    expect(result.output).toEqual({ name: "ToolCallError", message: "tools.flaky failed: upstream 503" });
  });

  it("checks tool arguments are JSON before they leave the guest", async () => {
    let called = false;
    const error = await rejectionOf(
      executeCode(
        singleFileOptions("export async function run({ tools }) { return tools.save({ when: new Date(), f: () => 1 }); }", {
          allowedTools: ["save"],
          callTool: async () => {
            called = true;
            return null;
          },
        }),
      ),
    );
    expect(error.code).toBe("sandbox.guest_threw");
    expect(error.message).toContain("tools.save(args): arguments must be JSON, but at $.when a Date is not plain JSON");
    expect(called).toBe(false);
  });

  it("runs more concurrent executions than workers may run at once, each with its own result", async () => {
    await warmUpSandbox();
    const inputs = Array.from({ length: 9 }, (_, index) => index);
    const results = await Promise.all(
      inputs.map((input) => executeCode(singleFileOptions("export async function run({ input }) { return input * input; }", { input }))),
    );
    expect(results.map((result) => result.output)).toEqual(inputs.map((input) => input * input));
  });

  it("refuses input that is not JSON before starting anything", async () => {
    const error = await rejectionOf(executeCode(singleFileOptions("export async function run() {}", { input: { n: Number.NaN } })));
    expect(error.code).toBe("sandbox.invalid_options");
    expect(error.message).toContain("$input.n");
  });
});
