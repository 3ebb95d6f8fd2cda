import type { LwirAiGenerateStep, LwirDecisionStep, LwirOutputMode, LwirParallelStep, LwirToolCallStep } from "@little-stack/lwir";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedV3Model } from "../__fixtures__/scripted-v3-model.js";
import { eventTypes, payloadsOf, testContext, testRunId } from "./__fixtures__/test-context.js";
import { AiOutputSchemaError } from "./output-schema-errors.js";
import { workflowHarness } from "./workflow-harness.js";
import { HarnessContextError } from "../contract/harness-context-error.js";
import { ParallelStepNotExecutableError, ToolNotPermittedError } from "./workflow-harness-errors.js";

const stepContext = { stepPath: "route", visitIndex: 0 };

describe("execute_step: decision", () => {
  const step: LwirDecisionStep = {
    id: "route",
    uses: "decision",
    with: { cases: [{ when: "{{ input.score >= 5 }}", to: "accept" }, { when: "{{ input.flag }}", to: "review" }], default: "reject" },
  };

  it("evaluates the cases against the expression context (no model) and records the direct-execute events", async () => {
    const { ctx, sink } = testContext({ extra: { expressionContext: { input: { score: 3, flag: true }, steps: {} } } });
    const result = await workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext }, ctx);
    expect(result).toEqual({ kind: "execute_step", output: { chosen: "review" }, artifactRefs: [] });
    expect(eventTypes(sink.events)).toEqual(["session.started", "execute_step.started", "execute_step.succeeded", "session.completed"]);
    expect(payloadsOf(sink.events, "harness.execute_step.succeeded")[0]).toEqual({
      runId: testRunId,
      stepId: "route",
      uses: "decision",
      stepPath: "route",
      visitIndex: 0,
      output: { chosen: "review" },
    });
    // The output is in execute_step.succeeded (and the runtime's StepCompleted): not stored again.
    const completed = payloadsOf(sink.events, "harness.session.completed")[0]!;
    expect(completed).toMatchObject({ usage: { inputTokens: 0, outputTokens: 0 } });
    expect(completed).not.toHaveProperty("output");
  });

  it("reads already-resolved when values without an expression context, and falls back to default", async () => {
    const resolved = { ...step, with: { ...step.with, cases: [{ when: false as unknown as string, to: "accept" }, { when: 0 as unknown as string, to: "review" }] } };
    const { ctx } = testContext();
    const result = await workflowHarness.run({ kind: "execute_step", step: resolved, stepInput: null, stepContext }, ctx);
    expect(result).toMatchObject({ output: { chosen: "reject" } });
  });

  it("returns the recorded output of a completed session without evaluating again", async () => {
    const first = testContext({ extra: { expressionContext: { input: { score: 9 }, steps: {} } } });
    await workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext }, first.ctx);
    // Same log, different input: a recorded session must answer from the log.
    const second = testContext({ events: first.sink.events, extra: { expressionContext: { input: { score: 0 }, steps: {} } } });
    const result = await workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext }, second.ctx);
    expect(result).toMatchObject({ output: { chosen: "accept" } });
    expect(second.sink.events).toHaveLength(first.sink.events.length);
  });
});

describe("execute_step: tool.call", () => {
  function lookup(calls: unknown[]) {
    return tool({
      description: "Looks up a ticket.",
      inputSchema: z.object({ ticketId: z.string() }),
      execute: async (input) => {
        calls.push(input);
        return { title: `Ticket ${input.ticketId}` };
      },
    });
  }
  const step: LwirToolCallStep = { id: "fetch", uses: "tool.call", with: { tool: "lookup" }, output: { mode: "json" } };

  it("calls the one named tool with the step input, recorded with caller code and no turn", async () => {
    const calls: unknown[] = [];
    const { ctx, sink } = testContext({ tools: { lookup: lookup(calls), other: lookup([]) }, extra: { permissions: { tools: ["lookup"] } } });
    const result = await workflowHarness.run({ kind: "execute_step", step, stepInput: { ticketId: "T-1" }, stepContext: { stepPath: "fetch", visitIndex: 0 } }, ctx);
    expect(result).toMatchObject({ output: { title: "Ticket T-1" } });
    expect(calls).toEqual([{ ticketId: "T-1" }]);
    // The tool call is the step's execution record: no execute_step.* pair around it.
    expect(eventTypes(sink.events)).toEqual(["session.started", "tool_call.started", "tool_call.succeeded", "session.completed"]);
    const started = payloadsOf(sink.events, "harness.tool_call.started")[0]!;
    expect(started).toMatchObject({ caller: "code", toolName: "lookup", args: { ticketId: "T-1" }, callIndex: 0 });
    expect(started.turn).toBeUndefined();
  });

  it("resumed after the tool's result was recorded (session not completed), returns that result without calling the tool", async () => {
    const calls: unknown[] = [];
    const task = { kind: "execute_step" as const, step, stepInput: { ticketId: "T-1" }, stepContext: { stepPath: "fetch", visitIndex: 0 } };
    const first = testContext({ tools: { lookup: lookup(calls) }, extra: { permissions: { tools: ["lookup"] } } });
    await workflowHarness.run(task, first.ctx);
    // The process died after tool_call.succeeded, before session.completed.
    const untilResult = first.sink.events.filter((event) => event.type !== "harness.session.completed");
    const second = testContext({ tools: { lookup: lookup(calls) }, events: untilResult, extra: { permissions: { tools: ["lookup"] } } });
    const result = await workflowHarness.run(task, second.ctx);
    expect(result).toMatchObject({ output: { title: "Ticket T-1" } });
    expect(calls).toHaveLength(1);
    expect(eventTypes(second.sink.events)).toEqual(["session.started", "tool_call.started", "tool_call.succeeded", "session.completed"]);
  });

  it("completed, returns its recorded result without calling the tool or recording anything (the completion carries no output)", async () => {
    const calls: unknown[] = [];
    const task = { kind: "execute_step" as const, step, stepInput: { ticketId: "T-1" }, stepContext: { stepPath: "fetch", visitIndex: 0 } };
    const first = testContext({ tools: { lookup: lookup(calls) }, extra: { permissions: { tools: ["lookup"] } } });
    await workflowHarness.run(task, first.ctx);
    expect(payloadsOf(first.sink.events, "harness.session.completed")[0]).not.toHaveProperty("output");
    const second = testContext({ tools: { lookup: lookup(calls) }, events: first.sink.events, extra: { permissions: { tools: ["lookup"] } } });
    expect(await workflowHarness.run(task, second.ctx)).toEqual({ kind: "execute_step", output: { title: "Ticket T-1" }, artifactRefs: [] });
    expect(calls).toHaveLength(1);
    expect(second.sink.events).toHaveLength(first.sink.events.length);
  });

  it("completed in a log written before, with the output in the completion, returns that output as it did", async () => {
    const calls: unknown[] = [];
    const task = { kind: "execute_step" as const, step, stepInput: { ticketId: "T-1" }, stepContext: { stepPath: "fetch", visitIndex: 0 } };
    const first = testContext({ tools: { lookup: lookup(calls) }, extra: { permissions: { tools: ["lookup"] } } });
    await workflowHarness.run(task, first.ctx);
    // The completion names an output the tool call never returned: it is what is returned.
    const before = first.sink.events.map((event) => (event.type === "harness.session.completed" ? { ...event, payload: { ...(event.payload as object), output: { title: "from the completion" } } } : event));
    const second = testContext({ tools: { lookup: lookup(calls) }, events: before as typeof first.sink.events, extra: { permissions: { tools: ["lookup"] } } });
    expect(await workflowHarness.run(task, second.ctx)).toMatchObject({ output: { title: "from the completion" } });
    expect(calls).toHaveLength(1);
  });

  it("refuses a tool outside permissions.tools and records the session as failed", async () => {
    const calls: unknown[] = [];
    const { ctx, sink } = testContext({ tools: { lookup: lookup(calls) }, extra: { permissions: { tools: ["other"] } } });
    const task = { kind: "execute_step" as const, step, stepInput: { ticketId: "T-1" }, stepContext: { stepPath: "fetch", visitIndex: 0 } };
    await expect(workflowHarness.run(task, ctx)).rejects.toBeInstanceOf(ToolNotPermittedError);
    expect(calls).toEqual([]);
    expect(eventTypes(sink.events)).toEqual(["session.started", "session.failed"]);
    expect(payloadsOf(sink.events, "harness.session.failed")[0]).toMatchObject({ error: { name: "ToolNotPermittedError", code: "harness.tool_not_permitted" } });
  });
});

describe("execute_step: ai.generate", () => {
  function aiStep(output: LwirOutputMode): LwirAiGenerateStep {
    return {
      id: "summarize",
      uses: "ai.generate",
      with: { model: "fast", prompt: "Summarize ticket {{ input.ticketId }} for {{ upper(input.team) }}.", system: "Team {{ input.team }}." },
      output,
    };
  }
  const expressionContext = { input: { ticketId: "T-7", team: "ops" }, steps: {} };

  it("resolves the prompt and system templates, sends the declared step input after the prompt, one call, no tools", async () => {
    const model = scriptedV3Model([{ text: "Short summary.", usage: { input: 30, output: 4, cached: 10 } }]);
    const { ctx, sink } = testContext({ role: "worker.ai-generate", model, extra: { expressionContext } });
    const step = { ...aiStep({ mode: "text" }), input: { transcript: "{{ input.transcript }}" } };
    const result = await workflowHarness.run(
      { kind: "execute_step", step, stepInput: { transcript: "it broke" }, stepContext: { stepPath: "summarize", visitIndex: 0 } },
      ctx,
    );
    expect(result).toMatchObject({ output: "Short summary." });
    expect(model.calls).toHaveLength(1);
    const call = model.calls[0]!;
    expect(call.tools ?? []).toEqual([]);
    expect(call.prompt[0]).toEqual({ role: "system", content: "Team ops." });
    expect(call.prompt[1]).toMatchObject({
      role: "user",
      content: [
        { type: "text", text: "Summarize ticket T-7 for OPS." },
        { type: "text", text: 'Step input (JSON):\n{"transcript":"it broke"}' },
      ],
    });
    expect(eventTypes(sink.events)).toEqual([
      "session.started",
      "execute_step.started",
      "model.called",
      "model.responded",
      "execute_step.succeeded",
      "session.completed",
    ]);
    expect(payloadsOf(sink.events, "harness.model.responded")[0]).toMatchObject({ stepPath: "summarize", response: { usage: { inputTokens: 30, cachedInputTokens: 10 } } });
    expect(payloadsOf(sink.events, "harness.session.completed")[0]).toMatchObject({ usage: { inputTokens: 30, outputTokens: 4, cachedInputTokens: 10 } });
  });

  it("sends an already-resolved prompt as is when the context carries no expressions", async () => {
    const model = scriptedV3Model([{ text: "ok" }]);
    const { ctx } = testContext({ role: "worker.ai-generate", model });
    const step = { ...aiStep({ mode: "text" }), with: { model: "fast", prompt: "Literal {{ kept }}" } };
    await workflowHarness.run({ kind: "execute_step", step, stepInput: undefined, stepContext: { stepPath: "summarize", visitIndex: 0 } }, ctx);
    expect(model.calls[0]!.prompt[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "Literal {{ kept }}" }] });
  });

  const objectSchema = { type: "object", properties: { severity: { type: "string", enum: ["low", "high"] } }, required: ["severity"], additionalProperties: false };
  const cases: { mode: LwirOutputMode; answer: string; output: unknown; responseFormat: Record<string, unknown> }[] = [
    { mode: { mode: "text" }, answer: "plain", output: "plain", responseFormat: { type: "text" } },
    { mode: { mode: "object", schema: objectSchema, name: "triage" }, answer: '{"severity":"high"}', output: { severity: "high" }, responseFormat: { type: "json", schema: objectSchema, name: "triage" } },
    {
      mode: { mode: "array", schema: { type: "array", items: { type: "string" }, maxItems: 3 } },
      answer: '{"elements":["a","b"]}',
      output: ["a", "b"],
      responseFormat: { type: "json", schema: { type: "object", properties: { elements: { type: "array", items: { type: "string" } } } } },
    },
    { mode: { mode: "choice", values: ["low", "high"] }, answer: '{"result":"low"}', output: "low", responseFormat: { type: "json", schema: { properties: { result: { enum: ["low", "high"] } } } } },
    { mode: { mode: "json" }, answer: '{"any":[1,2]}', output: { any: [1, 2] }, responseFormat: { type: "json" } },
  ];
  for (const entry of cases) {
    it(`maps output mode ${entry.mode.mode} to Output.* and returns the parsed answer`, async () => {
      const model = scriptedV3Model([{ text: entry.answer }]);
      const { ctx } = testContext({ role: "worker.ai-generate", model, extra: { expressionContext } });
      const result = await workflowHarness.run({ kind: "execute_step", step: aiStep(entry.mode), stepInput: null, stepContext: { stepPath: "summarize", visitIndex: 0 } }, ctx);
      expect(result).toMatchObject({ output: entry.output });
      expect(model.calls[0]!.responseFormat).toMatchObject(entry.responseFormat);
    });
  }

  it("checks the answer against the whole LWIR schema (array bounds, json schema) with a named error after the one repair turn", async () => {
    const model = scriptedV3Model([{ text: '{"elements":["a","b","c","d"]}' }, { text: '{"elements":["a","b","c","d","e"]}' }]);
    const { ctx } = testContext({ role: "worker.ai-generate", model, extra: { expressionContext } });
    const step = aiStep({ mode: "array", schema: { type: "array", items: { type: "string" }, maxItems: 3 } });
    const error = await workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext: { stepPath: "summarize", visitIndex: 0 } }, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AiOutputSchemaError);
    expect((error as AiOutputSchemaError).mismatches[0]).toMatchObject({ path: "$" });
    expect(model.calls).toHaveLength(2);
  });
});

describe("execute_step: refusals", () => {
  it("refuses parallel with a named error: it is the runtime's job", async () => {
    const { ctx, sink } = testContext();
    const step = { id: "fan", uses: "parallel", with: {}, steps: [], output: { mode: "array", schema: {} } } as unknown as LwirParallelStep;
    await expect(workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext }, ctx)).rejects.toBeInstanceOf(ParallelStepNotExecutableError);
    expect(sink.events).toEqual([]);
  });

  it("asks for a manifest when the context has none", async () => {
    const { ctx } = testContext();
    const { manifest: _manifest, ...withoutManifest } = ctx;
    const step: LwirDecisionStep = { id: "route", uses: "decision", with: { cases: [], default: "end" } };
    const error = await workflowHarness.run({ kind: "execute_step", step, stepInput: null, stepContext }, withoutManifest).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarnessContextError);
    expect((error as Error).message).toMatch(/WorkerManifest as ctx.manifest/);
  });
});
