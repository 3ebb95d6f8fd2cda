import { canonicalJson, sha256DigestOfBytes } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { scriptedV3Model, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { PlanTask } from "../contract/harness.js";
import { payloadsOf, testContext } from "./__fixtures__/test-context.js";
import type { CheckWorkflowResult, SubmitWorkflowResult } from "./plan-task.js";
import type { TestCodeResult } from "./test-code-tool.js";
import { workflowHarness } from "./workflow-harness.js";

const inputSchema = { type: "object", properties: { prices: { type: "array", items: { type: "number" } } }, required: ["prices"] };
const outputSchema = { type: "object", properties: { total: { type: "number" } }, required: ["total"], additionalProperties: false };
const source = "export async function run({ input }) {\n  return { total: input.prices.reduce((sum, price) => sum + price, 0) };\n}\n";

// What a model may submit: steps only; the harness completes the rest.
const stepsOnly = {
  steps: [
    {
      id: "sum",
      uses: "code.run",
      with: { entrypoint: "sum.js", files: { "sum.js": source }, sandbox: { network: "deny" } },
      output: { mode: "object", schema: outputSchema },
    },
  ],
};

const task: PlanTask = {
  kind: "plan",
  workflowSnapshot: {
    id: "demo.sum",
    description: "Add prices.",
    inputSchemaHash: "sha256:1",
    outputSchemaHash: "sha256:2",
    modelSlots: [],
    plannerConfig: { modelSlotId: "planner", harnessId: "workflowHarness@0.2.0", systemHash: "sha256:3", skillsHash: "sha256:4" },
    workerConfig: { harnessId: "workflowHarness@0.2.0", skillsHash: "sha256:4" },
    globalTools: ["rates"],
    memoryConfig: { workflow: "none", org: "none", attached: [] },
    inputSchema,
    outputSchema,
    tools: [{ name: "rates", description: "Currency rates.", inputSchema: { type: "object", properties: { currency: { type: "string" } } }, outputSchema: { type: "object", properties: { rate: { type: "number" } } } }],
  },
  input: { prices: [1, 2.5] },
};

// A minimal completion standing in for the compiler's: fills what the planner left out.
const completeWorkflow = (lwir: unknown): unknown => {
  const document = lwir as { steps: { with: { files: Record<string, unknown> } }[] };
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "demo.sum" },
    input: { schema: inputSchema },
    output: { schema: outputSchema },
    permissions: { models: [], tools: [] },
    steps: document.steps.map((step) => ({
      ...step,
      with: { ...step.with, files: Object.fromEntries(Object.entries(step.with.files).map(([path, content]) => [path, typeof content === "string" ? codeFileOf(content) : content])) },
    })),
  };
};

function codeFileOf(content: string) {
  return { content, sha256: sha256DigestOfBytes(content) };
}

const call = (toolName: string, args: unknown): FixtureTurn => ({ toolCalls: [{ toolName, args }] });

describe("planner tools", () => {
  it("check_workflow validates a draft without spending a revision; the submission is completed before it is checked", async () => {
    const invalid = { steps: [{ ...stepsOnly.steps[0], output: { mode: "object" } }] };
    const model = scriptedV3Model([call("check_workflow", { lwir: invalid }), call("check_workflow", { lwir: stepsOnly }), call("submit_workflow", { lwir: stepsOnly })]);
    const { ctx, sink } = testContext({ role: "planner", model, extra: { planning: { maxWorkflowRevisions: 1, completeWorkflow } } });
    const result = await workflowHarness.run(task, ctx);
    expect(result).toEqual({ kind: "plan", lwir: completeWorkflow(stepsOnly) });
    const results = payloadsOf(sink.events, "harness.tool_call.succeeded").map((payload) => [payload.toolName, payload.result]);
    expect(results[0]![0]).toBe("check_workflow");
    expect((results[0]![1] as CheckWorkflowResult).valid).toBe(false);
    expect((results[0]![1] as CheckWorkflowResult).findings.map((finding) => finding.code)).toContain("output.missing_schema");
    expect(results[1]).toEqual(["check_workflow", { valid: true, findings: [] }]);
    expect(results[2]).toEqual(["submit_workflow", { accepted: true, findings: [] } satisfies SubmitWorkflowResult]);
  });

  it("the brief shows schemas, model slots and tools with their schemas, and no hashes", async () => {
    const model = scriptedV3Model([call("submit_workflow", { lwir: stepsOnly })]);
    const { ctx } = testContext({ role: "planner", model, extra: { planning: { completeWorkflow } } });
    await workflowHarness.run(task, ctx);
    const brief = JSON.stringify(model.calls[0]!.prompt[1]);
    expect(brief).toContain(JSON.stringify(canonicalJson(inputSchema)).slice(1, -1));
    expect(brief).toContain("- rates: Currency rates.");
    expect(brief).toContain('output schema: {\\"properties\\":{\\"rate\\"');
    expect(brief).not.toContain("sha256:");
    const system = (model.calls[0]!.prompt[0] as { content: string }).content;
    expect(system).toContain("check_workflow({ lwir })");
    expect(system).toContain("LWIR v0.1 card");
  });

  it("test_code runs source in the sandbox, checks the output mode, and says tools cannot run while planning", async () => {
    const withTool = "export async function run({ input, tools }) {\n  const { rate } = await tools.rates({ currency: 'EUR' });\n  return { total: input.prices[0] * rate };\n}\n";
    const model = scriptedV3Model([
      call("test_code", { files: { "sum.js": source }, entrypoint: "sum.js", input: { prices: [1, 2.5] }, output: { mode: "object", schema: outputSchema } }),
      call("test_code", { files: { "sum.ts": "export async function run() { return { total: 'x' }; }" }, entrypoint: "sum.ts", output: { mode: "object", schema: outputSchema } }),
      call("test_code", { files: { "fx.js": withTool }, entrypoint: "fx.js", input: { prices: [2] } }),
      call("test_code", { files: { "fx.js": withTool }, entrypoint: "fx.js", input: { prices: [2] }, toolStubs: { rates: { rate: 1.5 } } }),
      call("submit_workflow", { lwir: stepsOnly }),
    ]);
    const { ctx, sink } = testContext({ role: "planner", model, extra: { planning: { completeWorkflow } } });
    await workflowHarness.run(task, ctx);
    const results = payloadsOf(sink.events, "harness.tool_call.succeeded")
      .filter((payload) => payload.toolName === "test_code")
      .map((payload) => payload.result as TestCodeResult);
    expect(results[0]).toEqual({ ok: true, output: { total: 3.5 }, logs: [], toolCalls: [] });
    expect(results[1]).toMatchObject({ ok: false, error: { name: "OutputMismatch" }, mismatches: [expect.objectContaining({ path: "$.total" })] });
    expect(results[2]).toMatchObject({ ok: false });
    expect(JSON.stringify(results[2])).toContain("cannot run while planning");
    expect(results[3]).toEqual({ ok: true, output: { total: 3 }, logs: [], toolCalls: [{ toolName: "rates", args: { currency: "EUR" } }] });
  });

  it("a resumed session replays check_workflow and test_code instead of running them again", async () => {
    const interrupted = new AbortController();
    const firstModel = scriptedV3Model([call("check_workflow", { lwir: stepsOnly }), call("test_code", { files: { "sum.js": source }, entrypoint: "sum.js", input: { prices: [4] } })]);
    // The third model call of the first process never answers: the process "dies" there.
    const dying = { ...firstModel, doGenerate: async (options: Parameters<typeof firstModel.doGenerate>[0]) => {
      if (firstModel.calls.length === 2) {
        interrupted.abort(new Error("killed"));
        throw new Error("killed");
      }
      return firstModel.doGenerate(options);
    } } as unknown as typeof firstModel;
    const first = testContext({ role: "planner", model: dying, extra: { planning: { completeWorkflow }, abortSignal: interrupted.signal } });
    await expect(workflowHarness.run(task, first.ctx)).rejects.toThrow();
    const recorded = first.sink.events;
    expect(payloadsOf(recorded, "harness.tool_call.succeeded").map((payload) => payload.toolName)).toEqual(["check_workflow", "test_code"]);
    expect(recorded.some((event) => event.type === "harness.session.failed")).toBe(false);

    const secondModel = scriptedV3Model([call("submit_workflow", { lwir: stepsOnly })]);
    const second = testContext({ role: "planner", model: secondModel, events: recorded, extra: { planning: { completeWorkflow } } });
    expect(await workflowHarness.run(task, second.ctx)).toEqual({ kind: "plan", lwir: completeWorkflow(stepsOnly) });
    expect(secondModel.calls).toHaveLength(1);
    const started = payloadsOf(second.sink.events, "harness.tool_call.started").map((payload) => payload.toolName);
    expect(started).toEqual(["check_workflow", "test_code", "submit_workflow"]);
  });
});
