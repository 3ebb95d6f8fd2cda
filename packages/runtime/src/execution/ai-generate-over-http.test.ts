import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createToolRegistry } from "@little-stack/harness";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirStep } from "@little-stack/lwir";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer, type LoopbackRequest } from "@little-stack/testing";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { crashingWorld } from "../__fixtures__/crashing-world.js";
import { lwirDocument, versionOf } from "../__fixtures__/workflows.js";
import { RunFailedError } from "../errors/run-failed-error.js";
import { executeWorkflowVersion } from "./execute-workflow-version.js";

/**
 * The default harness's ai.generate step against a real HTTP server speaking the OpenAI chat API,
 * through the real providers: what goes over the wire (response_format, the user message), the
 * one repair turn, and resume after it.
 */
let server: LoopbackOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ChatMessage = { role: string; content: unknown };
const messagesOf = (request: LoopbackRequest | undefined): ChatMessage[] => (request?.body.messages ?? []) as ChatMessage[];
const compatible = (baseURL: string, supportsStructuredOutputs?: boolean): LanguageModelV3 =>
  createOpenAICompatible({ name: "loopback", baseURL, apiKey: "test-key", includeUsage: true, ...(supportsStructuredOutputs === undefined ? {} : { supportsStructuredOutputs }) })("worker-1");

const ticketSchema = {
  type: "object",
  properties: { title: { type: "string" }, severity: { type: "string", enum: ["low", "high"] }, owner: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  required: ["title"],
  additionalProperties: false,
};
const strictTicketSchema = {
  type: "object",
  properties: {
    title: { type: "string" },
    severity: { type: ["string", "null"], enum: ["low", "high", null] },
    owner: { anyOf: [{ type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false }, { type: "null" }] },
  },
  required: ["title", "severity", "owner"],
  additionalProperties: false,
};

function oneStep(step: Record<string, unknown>) {
  return versionOf(lwirDocument({ steps: [{ id: "work", uses: "ai.generate", ...step } as LwirStep], models: ["worker"], inputSchema: { type: "object" } }));
}

const run = (options: { version: ReturnType<typeof oneStep>; model: LanguageModelV3; world?: ReturnType<typeof memoryWorld>; runId: string; input?: unknown }) =>
  executeWorkflowVersion({
    world: options.world ?? memoryWorld(),
    workflowVersion: options.version,
    input: options.input ?? { mail: "The printer is on fire." },
    tools: createToolRegistry({}),
    models: { worker: options.model },
    runId: options.runId,
  });

const choiceStep = { with: { model: "worker", prompt: "Route this email: {{ input.mail }}" }, output: { mode: "choice", values: ["billing", "technical", "other"] } };

describe("ai.generate over HTTP: the request", () => {
  it("sends only the resolved prompt when the step declares no input, and the canonical step input after it when it does", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: "noted" }, { text: "noted" }] });
    const prompt = { with: { model: "worker", prompt: "Summarize: {{ input.mail }}" }, output: { mode: "text" } };
    await run({ version: oneStep(prompt), model: compatible(server.baseURL), runId: "run-no-input", input: { mail: "m1", secret: "not for the model" } });
    expect(messagesOf(server.requests[0])).toEqual([{ role: "user", content: "Summarize: m1" }]);
    await run({ version: oneStep({ ...prompt, input: { mail: "{{ input.mail }}", n: 2 } }), model: compatible(server.baseURL), runId: "run-input", input: { mail: "m1", secret: "x" } });
    expect(messagesOf(server.requests[1])).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Summarize: m1" },
          { type: "text", text: 'Step input (JSON):\n{"mail":"m1","n":2}' },
        ],
      },
    ]);
  });

  it("sends an object schema with optional fields as strict json_schema when the provider supports structured outputs, and maps the nulls back", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"title":"Printer on fire","severity":"high","owner":null}' }] });
    const step = { with: { model: "worker", prompt: "File a ticket for: {{ input.mail }}" }, output: { mode: "object", schema: ticketSchema, name: "ticket" } };
    const result = await run({ version: oneStep(step), model: compatible(server.baseURL, true), runId: "run-strict" });
    expect(result.output).toEqual({ title: "Printer on fire", severity: "high" });
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "ticket", strict: true, schema: strictTicketSchema } });
    // Enforced by the provider: nothing about the shape in the message.
    expect(messagesOf(server.requests[0])).toEqual([{ role: "user", content: "File a ticket for: The printer is on fire." }]);
  });

  it("states the choice values and the exact JSON form when the provider sends json_object without a schema", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"result":"technical"}' }] });
    const result = await run({ version: oneStep(choiceStep), model: compatible(server.baseURL), runId: "run-json-object" });
    expect(result.output).toBe("technical");
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
    expect(messagesOf(server.requests[0])).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Route this email: The printer is on fire." },
          {
            type: "text",
            text: 'Answer with one JSON object of the form {"result": "<value>"} and nothing else (no prose, no code fence), where <value> is exactly one of: "billing", "technical", "other". For example: {"result":"billing"}',
          },
        ],
      },
    ]);
  });

  it("states the schema of an object output when the provider sends json_object", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"title":"t"}' }] });
    const step = { with: { model: "worker", prompt: "File a ticket." }, output: { mode: "object", schema: ticketSchema } };
    const result = await run({ version: oneStep(step), model: compatible(server.baseURL), runId: "run-object-stated" });
    expect(result.output).toEqual({ title: "t" });
    const content = messagesOf(server.requests[0])[0]?.content as { text: string }[];
    expect(content[1]?.text).toMatch(/^Answer with one JSON object and nothing else \(no prose, no code fence\)\. It must match this JSON Schema:\n\{"additionalProperties":false,"properties":\{"owner"/);
    expect(JSON.parse(content[1]!.text.split("\n")[1]!)).toEqual(ticketSchema);
  });
});

describe("ai.generate over HTTP: @ai-sdk/openai's chat model (strict structured outputs by default)", () => {
  const openaiChat = (baseURL: string): LanguageModelV3 => createOpenAI({ baseURL, apiKey: "test-key" }).chat("gpt-4o-mini");

  it("sends the strict-transformed schema as json_schema with strict true and no shape in the message", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"title":"t","severity":null,"owner":{"name":"Ana"}}' }] });
    const step = { with: { model: "worker", prompt: "File a ticket." }, output: { mode: "object", schema: ticketSchema, name: "ticket" } };
    const result = await run({ version: oneStep(step), model: openaiChat(server.baseURL), runId: "run-openai-strict" });
    expect(result.output).toEqual({ title: "t", owner: { name: "Ana" } });
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "ticket", strict: true, schema: strictTicketSchema } });
    expect(messagesOf(server.requests[0])).toEqual([{ role: "user", content: "File a ticket." }]);
  });

  it("asks for non-strict decoding (strict false) and states the schema when it cannot be strict", async () => {
    const open = { type: "object", properties: { title: { type: "string" }, extra: { type: "object" } }, required: ["title"] };
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"title":"t","extra":{"k":1}}' }] });
    const step = { with: { model: "worker", prompt: "File a ticket." }, output: { mode: "object", schema: open } };
    const result = await run({ version: oneStep(step), model: openaiChat(server.baseURL), runId: "run-openai-open" });
    expect(result.output).toEqual({ title: "t", extra: { k: 1 } });
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_schema", json_schema: { name: "response", strict: false, schema: open } });
    const content = messagesOf(server.requests[0])[0]?.content as { text: string }[];
    expect(content[1]?.text).toMatch(/It must match this JSON Schema:\n/);
  });

  it("says JSON in the message for json without a schema (json_object needs it)", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"any":[1]}' }] });
    const step = { with: { model: "worker", prompt: "Anything." }, output: { mode: "json" } };
    const result = await run({ version: oneStep(step), model: openaiChat(server.baseURL), runId: "run-openai-json" });
    expect(result.output).toEqual({ any: [1] });
    expect(server.requests[0]?.body.response_format).toEqual({ type: "json_object" });
    expect(messagesOf(server.requests[0])).toEqual([
      { role: "user", content: [{ type: "text", text: "Anything." }, { type: "text", text: "Answer with one JSON value and nothing else (no prose, no code fence)." }] },
    ]);
  });
});

describe("ai.generate over HTTP: the repair turn", () => {
  it("gives a wrong first answer one repair turn carrying the answer and the mismatch; the step output is the repaired answer", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: '{"category":"billing"}' }, { text: '{"result":"billing"}' }] });
    const result = await run({ version: oneStep(choiceStep), model: compatible(server.baseURL), runId: "run-repair" });
    expect(result.output).toBe("billing");
    expect(server.requestCount).toBe(2);
    const [first, second] = [messagesOf(server.requests[0]), messagesOf(server.requests[1])];
    expect(second.slice(0, 1)).toEqual(first);
    expect(second[1]).toEqual({ role: "assistant", content: '{"category":"billing"}' });
    expect(second[2]?.role).toBe("user");
    expect(second[2]?.content).toMatch(
      /^Your previous answer does not fit the required answer format: \$: expected a JSON object of the form \{"result": "<one of the allowed values>"\}, got \{"category":"billing"\}\.\nAnswer again, correcting exactly that\. .*"billing", "technical", "other"/,
    );
    expect(server.requests[1]?.body.response_format).toEqual({ type: "json_object" });
    const calls = result.events.filter((event) => event.type === "harness.model.called" || event.type === "harness.model.responded").map((event) => event.type);
    expect(calls).toEqual(["harness.model.called", "harness.model.responded", "harness.model.called", "harness.model.responded"]);
  });

  it("fails the step after the repaired answer is wrong too: two requests, harness.ai_output_schema_mismatch", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: "billing" }, { text: '{"result":"invoices"}' }, { text: "unused" }] });
    const error = (await run({ version: oneStep(choiceStep), model: compatible(server.baseURL), runId: "run-repair-fails" }).catch((caught: unknown) => caught)) as RunFailedError;
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error.failedStepPath).toBe("work");
    // How the runtime classifies AiOutputSchemaError: an ordinary (retriable) step failure.
    expect(error.causeCode).toBe("step_failed");
    expect(error.message).toContain('expected one of "billing", "technical", "other", got "invoices"');
    expect(error.message).toContain("also after 1 repair turn");
    expect(server.requestCount).toBe(2);
    const failed = error.result?.events.find((event) => event.type === "StepFailed")?.payload as { error: { code?: string } } | undefined;
    expect(failed?.error.code).toBe("harness.ai_output_schema_mismatch");
  });

  it("resumes after the repair answer was recorded without sending any request", async () => {
    const answers = (request: LoopbackRequest) => ({ text: messagesOf(request).length === 1 ? '{"category":"billing"}' : '{"result":"billing"}' });
    server = await startLoopbackOpenAIServer({ respond: answers });
    // Where the repair answer lands in the log: the same run on a scratch world.
    const reference = await run({ version: oneStep(choiceStep), model: compatible(server.baseURL), runId: "run-resume" });
    const survive = reference.events.filter((event) => event.type === "harness.model.responded").at(-1)!.sequence;
    const world = memoryWorld();
    await expect(run({ version: oneStep(choiceStep), model: compatible(server.baseURL), world: crashingWorld(world, survive), runId: "run-resume" })).rejects.toThrow(/simulated crash/);
    const sent = server.requestCount;
    expect(sent).toBe(4);
    const resumed = await run({ version: oneStep(choiceStep), model: compatible(server.baseURL), world, runId: "run-resume" });
    expect(resumed.output).toBe("billing");
    expect(server.requestCount).toBe(sent);
    expect(resumed.events.filter((event) => event.type === "harness.model.called")).toHaveLength(2);
  });
});
