import type { LwirCodeRunStep } from "@little-stack/lwir";
import { SandboxError, shutdownSandboxWorkers } from "@little-stack/sandbox";
import { tool } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { codeFile, eventTypes, payloadsOf, testContext } from "./__fixtures__/test-context.js";
import { CodeOutputSchemaError } from "./output-schema-errors.js";
import { workflowHarness } from "./workflow-harness.js";

afterAll(() => shutdownSandboxWorkers());

const scoreSource = `
import { weight } from "./lib/weight.ts";
export async function run({ input, tools }: { input: { signals: string[] }; tools: any }) {
  const profile = await tools.lookupProfile({ id: input.signals[0] });
  return { score: input.signals.length * weight + profile.bonus, seeded: Math.random() };
}
`;

function codeStep(entry: string, options: { schema?: Record<string, unknown> } = {}): LwirCodeRunStep {
  return {
    id: "score",
    uses: "code.run",
    with: {
      entrypoint: "score.ts",
      files: { "score.ts": codeFile(entry), "lib/weight.ts": codeFile("export const weight: number = 10;\n") },
      sandbox: { network: "deny", env: "deny", fs: "deny" },
    },
    output: {
      mode: "object",
      schema: options.schema ?? { type: "object", properties: { score: { type: "number" }, seeded: { type: "number" } }, required: ["score"] },
    },
  };
}

function profileTool(calls: unknown[]) {
  return tool({
    description: "Profile bonus for a signal.",
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      calls.push(id);
      return { bonus: 5 };
    },
  });
}

const task = (step: LwirCodeRunStep) => ({ kind: "execute_step" as const, step, stepInput: { signals: ["a", "b"] }, stepContext: { stepPath: "score", visitIndex: 0 } });

describe("execute_step: code.run in the sandbox", () => {
  it("runs the step's files, records each tool call from code with caller code, and returns the output", async () => {
    const calls: unknown[] = [];
    const { ctx, sink } = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(calls) } });
    const result = await workflowHarness.run(task(codeStep(scoreSource)), ctx);
    expect(result).toMatchObject({ kind: "execute_step", output: { score: 25 } });
    expect(calls).toEqual(["a"]);
    expect(eventTypes(sink.events)).toEqual([
      "session.started",
      "execute_step.started",
      "tool_call.started",
      "tool_call.succeeded",
      "execute_step.succeeded",
      "session.completed",
    ]);
    const [started] = payloadsOf(sink.events, "harness.tool_call.started");
    expect(started).toMatchObject({ caller: "code", toolName: "lookupProfile", args: { id: "a" }, callIndex: 0 });
    expect(started!.turn).toBeUndefined();
    expect(payloadsOf(sink.events, "harness.tool_call.succeeded")[0]).toMatchObject({ caller: "code", result: { bonus: 5 } });
  });

  it("on replay answers the code's tool calls from the record: the tool runs zero times the second time", async () => {
    const firstCalls: unknown[] = [];
    const first = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(firstCalls) } });
    const live = await workflowHarness.run(task(codeStep(scoreSource)), first.ctx);
    // The process died after the tool result was committed, before the step's output was.
    const cut = first.sink.events.findIndex((event) => event.type === "harness.tool_call.succeeded");
    const survivors = first.sink.events.slice(0, cut + 1);
    const secondCalls: unknown[] = [];
    const second = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(secondCalls) }, events: survivors });
    const resumed = await workflowHarness.run(task(codeStep(scoreSource)), second.ctx);
    expect(firstCalls).toEqual(["a"]);
    expect(secondCalls).toEqual([]);
    // Same output, including the seeded Math.random: the replay computed the same thing.
    expect(resumed).toEqual(live);
    expect(eventTypes(second.sink.events.slice(survivors.length))).toEqual(["execute_step.succeeded", "session.completed"]);
  });

  it("records a failing tool call from code as tool_call.failed, and on resume rethrows it into the code without calling the tool", async () => {
    let invocations = 0;
    const flaky = tool({
      description: "Always fails.",
      inputSchema: z.object({ id: z.string() }),
      execute: async (): Promise<{ bonus: number }> => {
        invocations += 1;
        throw new Error("profile service down");
      },
    });
    const source = "export async function run({ tools }) {\n  try { await tools.lookupProfile({ id: 'a' }); return { score: 1 }; }\n  catch (error) { return { score: 0, reason: String(error.message) }; }\n}\n";
    const step = codeStep(source, { schema: { type: "object", properties: { score: { type: "number" }, reason: { type: "string" } }, required: ["score"] } });
    const first = testContext({ role: "worker.code-run", tools: { lookupProfile: flaky } });
    const live = await workflowHarness.run(task(step), first.ctx);
    expect(live).toMatchObject({ output: { score: 0, reason: expect.stringContaining("profile service down") } });
    expect(payloadsOf(first.sink.events, "harness.tool_call.failed")[0]).toMatchObject({ caller: "code", callIndex: 0, error: { message: "profile service down" } });
    const cut = first.sink.events.findIndex((event) => event.type === "harness.tool_call.failed");
    const second = testContext({ role: "worker.code-run", tools: { lookupProfile: flaky }, events: first.sink.events.slice(0, cut + 1) });
    const resumed = await workflowHarness.run(task(step), second.ctx);
    expect(resumed).toEqual(live);
    expect(invocations).toBe(1);
  });

  it("an output that does not match the step's schema is a CodeOutputSchemaError listing the mismatches", async () => {
    const { ctx, sink } = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool([]) } });
    const source = "export async function run() { return { score: 'high', extra: 1 }; }";
    const step = codeStep(source, { schema: { type: "object", properties: { score: { type: "number" } }, required: ["score", "reason"], additionalProperties: false } });
    const error = await workflowHarness.run(task(step), ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodeOutputSchemaError);
    const paths = (error as CodeOutputSchemaError).mismatches.map((mismatch) => mismatch.path).sort();
    expect(paths).toEqual(["$", "$", "$.score"]);
    expect((error as Error).message).toMatch(/code\.run step "score" returned an output that does not match/);
    expect(payloadsOf(sink.events, "harness.session.failed")[0]).toMatchObject({ error: { code: "harness.code_output_schema_mismatch" } });
  });

  it("reaches only permissions.tools ∩ ctx.tools", async () => {
    const calls: unknown[] = [];
    const { ctx } = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(calls) }, extra: { permissions: { tools: [] } } });
    const error = await workflowHarness.run(task(codeStep(scoreSource)), ctx).catch((caught: unknown) => caught);
    expect(SandboxError.is(error, "sandbox.tool_not_allowed")).toBe(true);
    expect(calls).toEqual([]);
  });

  it("an aborted execution is an interruption, not a failure: the session stays open and a resume completes it", async () => {
    const controller = new AbortController();
    controller.abort(new Error("run cancelled"));
    const calls: unknown[] = [];
    const first = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(calls) }, extra: { abortSignal: controller.signal } });
    const error = await workflowHarness.run(task(codeStep(scoreSource)), first.ctx).catch((caught: unknown) => caught);
    expect(SandboxError.is(error, "sandbox.aborted")).toBe(true);
    expect(eventTypes(first.sink.events)).toEqual(["session.started", "execute_step.started"]);
    const second = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool(calls) }, events: first.sink.events });
    const result = await workflowHarness.run(task(codeStep(scoreSource)), second.ctx);
    expect(result).toMatchObject({ output: { score: 25 } });
    expect(eventTypes(second.sink.events).slice(2)).toEqual(["tool_call.started", "tool_call.succeeded", "execute_step.succeeded", "session.completed"]);
  });

  it("refuses files whose content no longer matches their hash", async () => {
    const step = codeStep(scoreSource);
    const tampered = { ...step, with: { ...step.with, files: { ...step.with.files, "score.ts": { ...step.with.files["score.ts"]!, content: "export async function run() { return {}; }" } } } };
    const { ctx } = testContext({ role: "worker.code-run", tools: { lookupProfile: profileTool([]) } });
    const error = await workflowHarness.run(task(tampered), ctx).catch((caught: unknown) => caught);
    expect(SandboxError.is(error, "sandbox.file_hash_mismatch")).toBe(true);
  });
});
