import { resolveTemplates, type ExpressionContext, type LwirCodeFile, type LwirOutputMode } from "@little-stack/lwir";
import { executeCode, shutdownSandboxWorkers } from "@little-stack/sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { allExampleSteps, validExampleDocuments, type ExampleStep } from "./__fixtures__/lwir-skill-examples.js";
import { outputModeMismatches } from "./output-mode-mismatches.js";

afterAll(async () => {
  await shutdownSandboxWorkers();
});

const completedEntry = (orderId: string, totalCents: number) => ({
  itemKey: orderId,
  status: "completed",
  output: { orderId, totalCents },
  outputRef: "sha256:0000000000000000000000000000000000000000000000000000000000000000",
  artifacts: [],
});
const lookupFanIn = [
  completedEntry("o-1", 1200),
  { itemKey: "o-2", status: "failed", error: { name: "ToolError", message: "order o-2 not found", causeCode: "step_failed", retriable: true }, artifacts: [] },
  completedEntry("o-3", 300),
];

type RunCase = {
  /** What the step's `input` templates see (the workflow input when the step has no `input`). */
  readonly context: ExpressionContext;
  /** The workflow tools the code may call, standing in for the definition's tools. */
  readonly tools?: Readonly<Record<string, (args: Record<string, unknown>) => unknown>>;
  readonly expected: unknown;
};

/**
 * A run of every code.run step in the skill's valid examples, keyed `<workflow id>/<step id>`:
 * the code a planner copies must run in the real sandbox and return an output that fits its mode.
 */
const runCases: Record<string, RunCase> = {
  "billing.price-order/price": {
    context: { input: { lines: [{ sku: "A-1", qty: 2 }, { sku: "B-2", qty: 3 }] }, steps: {} },
    tools: { getPrice: ({ sku }) => ({ sku, unitPriceCents: sku === "A-1" ? 250 : 99 }) },
    expected: {
      totalCents: 797,
      lines: [
        { sku: "A-1", qty: 2, unitPriceCents: 250, lineCents: 500 },
        { sku: "B-2", qty: 3, unitPriceCents: 99, lineCents: 297 },
      ],
    },
  },
  "docs.reviewed-report/finalize": {
    context: { input: { topic: "tides" }, steps: { draft: { status: "completed", output: "Second draft.", visits: ["First draft.", "Second draft."] } } },
    expected: { report: "Second draft.", rounds: 2 },
  },
  "billing.sum-orders/sum": {
    context: { input: { orderIds: ["o-1", "o-2", "o-3"] }, steps: { lookup: { status: "completed", output: lookupFanIn } } },
    expected: { totalCents: 1500, missing: ["o-2"] },
  },
  "billing.parse-invoice/parse": {
    context: { input: { csv: "sku,qty,unitPriceCents\nA-1,2,250\n\nB-2, 3 ,99\n" }, steps: {} },
    expected: { lines: [{ sku: "A-1", qty: 2, lineCents: 500 }, { sku: "B-2", qty: 3, lineCents: 297 }], totalCents: 797 },
  },
};

const codeSteps = validExampleDocuments.flatMap((document) =>
  allExampleSteps(document.steps)
    .filter((step) => step.uses === "code.run")
    .map((step) => ({ key: `${document.metadata.name}/${step.id}`, step, tools: document.permissions?.tools ?? [] })),
);

function withOf(step: ExampleStep): { entrypoint: string; files: Record<string, LwirCodeFile> } {
  return step.with as { entrypoint: string; files: Record<string, LwirCodeFile> };
}

describe("the lwir skill's code.run examples", () => {
  it("has a run case for every code.run step of a valid example", () => {
    expect(codeSteps.map((entry) => entry.key).sort()).toEqual(Object.keys(runCases).sort());
  });

  it.each(codeSteps.map((entry) => [entry.key, entry] as const))("%s runs in the sandbox and fits its output mode", async (key, { step, tools }) => {
    const runCase = runCases[key]!;
    // The step input as the runtime builds it: `input` resolved, else the workflow input.
    const input = step.input === undefined ? runCase.context.input : resolveTemplates(step.input, runCase.context);
    const calls: string[] = [];
    const { entrypoint, files } = withOf(step);
    const result = await executeCode({
      files,
      entrypoint,
      input,
      determinismSeed: `skill-example/${key}`,
      allowedTools: [...tools],
      callTool: async ({ toolName, args }) => {
        calls.push(toolName);
        const tool = runCase.tools?.[toolName];
        if (tool === undefined) throw new Error(`the example called ${toolName}, which the case does not provide`);
        return tool(args as Record<string, unknown>);
      },
    });
    expect(result.output).toEqual(runCase.expected);
    expect(outputModeMismatches(step.output as LwirOutputMode, result.output)).toEqual([]);
    // Code that lists a tool in permissions is expected to call it.
    for (const tool of Object.keys(runCase.tools ?? {})) expect(calls).toContain(tool);
  });

  it("has a fan-in schema that takes completed and failed entries alike", () => {
    const document = validExampleDocuments.find((candidate) => candidate.metadata.name === "billing.sum-orders")!;
    const lookup = document.steps.find((step) => step.id === "lookup")!;
    expect(outputModeMismatches(lookup.output as LwirOutputMode, lookupFanIn)).toEqual([]);
  });
});
