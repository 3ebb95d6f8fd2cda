import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { LwirAiGenerateStep, LwirOutputMode } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import { scriptedV3Model, type FixtureModel, type FixtureTurn } from "../__fixtures__/scripted-v3-model.js";
import type { HarnessEventEnvelope } from "../events/harness-event-types.js";
import { eventTypes, payloadsOf, testContext } from "./__fixtures__/test-context.js";
import { AiOutputSchemaError } from "./output-schema-errors.js";
import { workflowHarness } from "./workflow-harness.js";

const stepContext = { stepPath: "route", visitIndex: 0 };

function aiStep(output: LwirOutputMode, extra: Partial<LwirAiGenerateStep> = {}): LwirAiGenerateStep {
  return { id: "route", uses: "ai.generate", with: { model: "fast", prompt: "Route the email." }, output, ...extra };
}

/** A scripted model that says it enforces (or ignores) response schemas, like an openai-compatible chat model. */
function modelWith(turns: readonly FixtureTurn[], supportsStructuredOutputs?: boolean): FixtureModel {
  const model = scriptedV3Model(turns);
  return supportsStructuredOutputs === undefined ? model : Object.assign(model, { supportsStructuredOutputs });
}

async function run(options: { step: LwirAiGenerateStep; model: FixtureModel; stepInput?: unknown; events?: readonly HarnessEventEnvelope[] }) {
  const { ctx, sink } = testContext({ role: "worker.ai-generate", model: options.model, ...(options.events === undefined ? {} : { events: options.events }) });
  const result = await workflowHarness.run({ kind: "execute_step", step: options.step, stepInput: options.stepInput ?? { mail: "hello" }, stepContext }, ctx);
  return { result, sink };
}

function userTexts(call: LanguageModelV3CallOptions, index = 0): string[] {
  const users = call.prompt.filter((message) => message.role === "user");
  const content = users[index]?.content ?? [];
  return content.map((part) => (part.type === "text" ? part.text : `<${part.type}>`));
}

const ticket = {
  type: "object",
  properties: {
    title: { type: "string" },
    severity: { type: "string", enum: ["low", "high"] },
    owner: { type: "object", properties: { name: { type: "string" }, team: { type: "string" } }, required: ["name"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title"],
} as const;

describe("ai.generate: the user message", () => {
  it("sends only the resolved prompt when the step declares no input (no copy of the workflow input)", async () => {
    const model = modelWith([{ text: "ok" }]);
    await run({ step: aiStep({ mode: "text" }), model, stepInput: { mail: "the whole workflow input" } });
    expect(userTexts(model.calls[0]!)).toEqual(["Route the email."]);
  });

  it("appends the step input as canonical JSON when the step declares input", async () => {
    const model = modelWith([{ text: "ok" }]);
    await run({ step: aiStep({ mode: "text" }, { input: { mail: "{{ input.mail }}", at: 3 } }), model, stepInput: { mail: "hello", at: 3 } });
    expect(userTexts(model.calls[0]!)).toEqual(["Route the email.", 'Step input (JSON):\n{"at":3,"mail":"hello"}']);
  });
});

describe("ai.generate: structured outputs", () => {
  it("sends an object schema with optional fields strict (every property required, optional ones nullable, objects closed) and drops the nulls again", async () => {
    const model = modelWith([{ text: '{"title":"Printer down","severity":null,"owner":{"name":"Ana","team":null},"tags":null}' }], true);
    const { result } = await run({ step: aiStep({ mode: "object", schema: ticket, name: "ticket" }), model });
    expect(result).toMatchObject({ output: { title: "Printer down", owner: { name: "Ana" } } });
    expect((result as { output: unknown }).output).toEqual({ title: "Printer down", owner: { name: "Ana" } });
    expect(model.calls[0]!.responseFormat).toEqual({
      type: "json",
      name: "ticket",
      schema: {
        type: "object",
        properties: {
          title: { type: "string" },
          severity: { type: ["string", "null"], enum: ["low", "high", null] },
          owner: {
            anyOf: [
              { type: "object", properties: { name: { type: "string" }, team: { type: ["string", "null"] } }, required: ["name", "team"], additionalProperties: false },
              { type: "null" },
            ],
          },
          tags: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
        },
        required: ["title", "severity", "owner", "tags"],
        additionalProperties: false,
      },
    });
    // Enforced by the provider: the message does not repeat the schema, and no non-strict option is sent.
    expect(userTexts(model.calls[0]!)).toEqual(["Route the email."]);
    expect(model.calls[0]!.providerOptions).toBeUndefined();
  });

  it("asks for non-strict decoding and states the schema when it cannot be made strict (a free-form property)", async () => {
    const schema = { type: "object", properties: { title: { type: "string" }, extra: { type: "object" } }, required: ["title"] };
    const model = modelWith([{ text: '{"title":"x","extra":{"any":1}}' }], true);
    const { result } = await run({ step: aiStep({ mode: "object", schema }), model });
    expect(result).toMatchObject({ output: { title: "x", extra: { any: 1 } } });
    expect(model.calls[0]!.responseFormat).toEqual({ type: "json", schema });
    expect(model.calls[0]!.providerOptions).toEqual({ openai: { strictJsonSchema: false }, openaiCompatible: { strictJsonSchema: false } });
    expect(userTexts(model.calls[0]!)[1]).toBe(`Answer with one JSON object and nothing else (no prose, no code fence). It must match this JSON Schema:\n${JSON.stringify({ properties: { extra: { type: "object" }, title: { type: "string" } }, required: ["title"], type: "object" })}`);
  });

  it("wraps an array in {elements} with the array's bounds, and returns the elements", async () => {
    const mode: LwirOutputMode = { mode: "array", schema: { type: "array", items: { type: "string" }, maxItems: 3 } };
    const model = modelWith([{ text: '{"elements":["a","b"]}' }], true);
    const { result } = await run({ step: aiStep(mode), model });
    expect(result).toMatchObject({ output: ["a", "b"] });
    expect(model.calls[0]!.responseFormat).toEqual({
      type: "json",
      schema: { type: "object", properties: { elements: { type: "array", items: { type: "string" }, maxItems: 3 } }, required: ["elements"], additionalProperties: false },
    });
  });

  it("sends no schema to a provider that ignores it and states the choice values and the exact JSON form", async () => {
    const model = modelWith([{ text: '{"result":"billing"}' }], false);
    const { result } = await run({ step: aiStep({ mode: "choice", values: ["billing", "technical", "other"] }), model });
    expect(result).toMatchObject({ output: "billing" });
    expect(model.calls[0]!.responseFormat).toEqual({ type: "json" });
    expect(userTexts(model.calls[0]!)).toEqual([
      "Route the email.",
      'Answer with one JSON object of the form {"result": "<value>"} and nothing else (no prose, no code fence), where <value> is exactly one of: "billing", "technical", "other". For example: {"result":"billing"}',
    ]);
  });

  it("sends the schema and states it too when it does not know whether the provider enforces it", async () => {
    const model = modelWith([{ text: '```json\n{"result":"low"}\n```' }]);
    const { result } = await run({ step: aiStep({ mode: "choice", values: ["low", "high"], description: "How urgent the email is." }), model });
    // One code fence around the whole answer is tolerated.
    expect(result).toMatchObject({ output: "low" });
    expect(model.calls[0]!.responseFormat).toEqual({
      type: "json",
      description: "How urgent the email is.",
      schema: { type: "object", properties: { result: { type: "string", enum: ["low", "high"] } }, required: ["result"], additionalProperties: false },
    });
    expect(userTexts(model.calls[0]!)[1]).toMatch(/^The answer: How urgent the email is\.\nAnswer with one JSON object of the form \{"result": "<value>"\}.*"low", "high"/);
  });

  it("always says JSON for json without a schema (OpenAI's json_object mode requires it), even when schemas are enforced", async () => {
    const model = modelWith([{ text: "null" }], true);
    const { result } = await run({ step: aiStep({ mode: "json" }), model });
    expect(result).toMatchObject({ output: null });
    expect(model.calls[0]!.responseFormat).toEqual({ type: "json" });
    expect(userTexts(model.calls[0]!)[1]).toBe("Answer with one JSON value and nothing else (no prose, no code fence).");
  });

  it("wraps json with a non-object schema in {result}", async () => {
    const model = modelWith([{ text: '{"result":[1,2]}' }], true);
    const { result } = await run({ step: aiStep({ mode: "json", schema: { type: "array", items: { type: "integer" } } }), model });
    expect(result).toMatchObject({ output: [1, 2] });
    expect(model.calls[0]!.responseFormat).toMatchObject({ schema: { properties: { result: { type: "array", items: { type: "integer" } } }, required: ["result"] } });
  });
});

describe("ai.generate: the repair turn", () => {
  const choice: LwirOutputMode = { mode: "choice", values: ["billing", "technical"] };

  it("answers a wrong first answer with one recorded repair turn carrying the answer and the mismatch", async () => {
    const model = modelWith([{ text: '{"category":"billing"}' }, { text: '{"result":"billing"}' }], false);
    const { result, sink } = await run({ step: aiStep(choice), model });
    expect(result).toMatchObject({ output: "billing" });
    expect(model.calls).toHaveLength(2);
    const repair = model.calls[1]!.prompt;
    expect(repair.slice(0, 1)).toEqual(model.calls[0]!.prompt);
    expect(repair[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: '{"category":"billing"}' }] });
    const repairText = userTexts(model.calls[1]!, 1).join("\n");
    expect(repairText).toContain('Your previous answer does not fit the required answer format: $: expected a JSON object of the form {"result": "<one of the allowed values>"}, got {"category":"billing"}.');
    expect(repairText).toContain('where <value> is exactly one of: "billing", "technical"');
    expect(model.calls[1]!.responseFormat).toEqual(model.calls[0]!.responseFormat);
    expect(eventTypes(sink.events)).toEqual([
      "session.started",
      "execute_step.started",
      "model.called",
      "model.responded",
      "model.called",
      "model.responded",
      "execute_step.succeeded",
      "session.completed",
    ]);
    expect(payloadsOf(sink.events, "harness.model.called").map((payload) => payload.turn)).toEqual([1, 2]);
  });

  it("names schema mismatches with paths into what the model wrote", async () => {
    const mode: LwirOutputMode = { mode: "array", schema: { type: "array", items: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } } };
    const model = modelWith([{ text: '{"elements":[{"n":1},{"n":"two"}]}' }, { text: '{"elements":[{"n":1},{"n":2}]}' }], true);
    const { result } = await run({ step: aiStep(mode), model });
    expect(result).toMatchObject({ output: [{ n: 1 }, { n: 2 }] });
    expect(userTexts(model.calls[1]!, 1)[0]).toMatch(/^Your previous answer does not fit the required answer format: \$\.elements\[1\]\.n: must be of type integer\./);
  });

  it("repairs an answer that is not JSON, and an empty one without quoting it", async () => {
    const notJson = modelWith([{ text: "It is billing." }, { text: '{"result":"technical"}' }], true);
    expect((await run({ step: aiStep(choice), model: notJson })).result).toMatchObject({ output: "technical" });
    expect(userTexts(notJson.calls[1]!, 1)[0]).toMatch(/^Your previous answer does not fit the required answer format: \$: the answer is not JSON \(.*\): It is billing\./);
    // No text part at all, as the OpenAI providers report an empty message.
    const empty = modelWith([{}, { text: '{"result":"technical"}' }], true);
    expect((await run({ step: aiStep(choice), model: empty })).result).toMatchObject({ output: "technical" });
    expect(empty.calls[1]!.prompt.map((message) => message.role)).toEqual(["user", "user"]);
    expect(userTexts(empty.calls[1]!, 1)[0]).toMatch(/\$: the answer is empty/);
  });

  it("fails with AiOutputSchemaError naming the last mismatch when the repaired answer does not fit either", async () => {
    const model = modelWith([{ text: '{"result":"invoice"}' }, { text: '{"result":"refund"}' }], true);
    const { ctx, sink } = testContext({ role: "worker.ai-generate", model });
    const error = await workflowHarness.run({ kind: "execute_step", step: aiStep(choice), stepInput: null, stepContext }, ctx).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AiOutputSchemaError);
    expect((error as AiOutputSchemaError).repairTurns).toBe(1);
    expect((error as AiOutputSchemaError).mismatches).toEqual([{ path: "$", message: 'expected one of "billing", "technical", got "refund"' }]);
    expect((error as Error).message).toContain("also after 1 repair turn");
    expect(model.calls).toHaveLength(2);
    expect(eventTypes(sink.events).slice(-2)).toEqual(["model.responded", "session.failed"]);
    expect(payloadsOf(sink.events, "harness.session.failed")[0]).toMatchObject({ error: { code: "harness.ai_output_schema_mismatch" } });
  });

  it("replays both turns on resume after the repair answer was recorded: no model call", async () => {
    const live = modelWith([{ text: '{"category":"billing"}' }, { text: '{"result":"billing"}' }], false);
    const first = await run({ step: aiStep(choice), model: live });
    // A crash right after the second model.responded: the step's success was never recorded.
    const upToRepair = first.sink.events.slice(0, first.sink.events.findLastIndex((event) => event.type === "harness.model.responded") + 1);
    const resumedModel = modelWith([], false);
    const resumed = await run({ step: aiStep(choice), model: resumedModel, events: upToRepair });
    expect(resumed.result).toMatchObject({ output: "billing" });
    expect(resumedModel.calls).toHaveLength(0);
    expect(eventTypes(resumed.sink.events.slice(upToRepair.length))).toEqual(["execute_step.succeeded", "session.completed"]);
  });

  it("makes only the repair call live on resume after the first answer was recorded, with the same request", async () => {
    const live = modelWith([{ text: '{"category":"billing"}' }, { text: '{"result":"billing"}' }], false);
    const first = await run({ step: aiStep(choice), model: live });
    const upToFirstAnswer = first.sink.events.slice(0, first.sink.events.findIndex((event) => event.type === "harness.model.responded") + 1);
    const resumedModel = modelWith([{ text: '{"result":"billing"}' }], false);
    const resumed = await run({ step: aiStep(choice), model: resumedModel, events: upToFirstAnswer });
    expect(resumed.result).toMatchObject({ output: "billing" });
    expect(resumedModel.calls).toHaveLength(1);
    expect(resumedModel.calls[0]!.prompt).toEqual(live.calls[1]!.prompt);
    const hashes = (events: readonly HarnessEventEnvelope[]) => payloadsOf(events, "harness.model.called").map((payload) => payload.promptHash);
    expect(hashes(resumed.sink.events)).toEqual(hashes(first.sink.events));
  });
});
