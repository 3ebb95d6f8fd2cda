import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from "./start-loopback-openai-server.js";

let server: LoopbackOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function providerFor(baseURL: string) {
  return createOpenAICompatible({ name: "loopback", baseURL, apiKey: "test-key", includeUsage: true });
}

const script = [
  { toolCalls: [{ toolName: "weather", args: { city: "Oslo" } }], usage: { inputTokens: 120, outputTokens: 15, cachedInputTokens: 64, reasoningTokens: 6 } },
  { text: "It is 3 degrees in Oslo.", usage: { inputTokens: 160, outputTokens: 9, cachedInputTokens: 128 } },
];

const weather = tool({
  description: "Current temperature for a city.",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  execute: async ({ city }) => ({ city, celsius: 3 }),
});

describe("startLoopbackOpenAIServer", () => {
  it("serves JSON chat completions with tool calls and cached-token usage to the real openai-compatible provider", async () => {
    server = await startLoopbackOpenAIServer({ script });
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const result = await generateText({ model: providerFor(server.baseURL)("loopback-model"), tools: { weather }, prompt: "Weather in Oslo?", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("It is 3 degrees in Oslo.");
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual({ city: "Oslo" });
    expect(result.totalUsage.inputTokens).toBe(280);
    expect(result.totalUsage.inputTokenDetails.cacheReadTokens).toBe(192);
    expect(result.totalUsage.outputTokenDetails.reasoningTokens).toBe(6);
    expect(server.requestCount).toBe(2);
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: JSON.stringify({ city: "Oslo", celsius: 3 }) });
  });

  it("streams SSE ending in data: [DONE]", async () => {
    server = await startLoopbackOpenAIServer({ script });
    const result = streamText({ model: providerFor(server.baseURL)("loopback-model"), tools: { weather }, prompt: "Weather in Oslo?", stopWhen: stepCountIs(3) });
    expect(await result.text).toBe("It is 3 degrees in Oslo.");
    expect((await result.totalUsage).inputTokenDetails.cacheReadTokens).toBe(192);
    expect(server.requests.map((request) => request.stream)).toEqual([true, true]);
    const raw = await fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", stream: true, messages: [] }) });
    expect(await raw.text()).toMatch(/script exhausted/);
  });

  it("answers from the request itself with respond, in any order, after the given delay", async () => {
    const lastUserText = (request: { body: Record<string, unknown> }): string => {
      const messages = request.body.messages as { role: string; content: unknown }[];
      return String(messages.filter((message) => message.role === "user").at(-1)?.content ?? "");
    };
    server = await startLoopbackOpenAIServer({ respond: (request) => (lastUserText(request) === "mute" ? undefined : { text: `echo ${lastUserText(request)}` }), delayMs: 40 });
    const model = providerFor(server.baseURL)("loopback-model");
    const started = Date.now();
    const answers = await Promise.all(["b", "a", "c"].map(async (prompt) => (await generateText({ model, prompt })).text));
    expect(answers).toEqual(["echo b", "echo a", "echo c"]);
    // Timers may fire a millisecond early; the point is that the answer waited.
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    await expect(generateText({ model, prompt: "mute", maxRetries: 0 })).rejects.toThrow(/request 4 has no answer/);
    expect(server.requestCount).toBe(4);
  });

  it("answers a request past the end of the script with an error and still counts it", async () => {
    server = await startLoopbackOpenAIServer({ script: [{ text: "one" }] });
    const model = providerFor(server.baseURL)("loopback-model");
    await generateText({ model, prompt: "1" });
    await expect(generateText({ model, prompt: "2", maxRetries: 0 })).rejects.toThrow(/loopback script exhausted: request 2/);
    expect(server.requestCount).toBe(2);
  });

  it("waits for an answer that comes later (respond returns a Promise), keeping a slow response alive", async () => {
    let answer!: (turn: { text: string } | undefined) => void;
    server = await startLoopbackOpenAIServer({ respond: () => new Promise((resolve) => (answer = resolve)), heartbeatMs: 5 });
    const chat = (stream: boolean) => fetch(`${server!.baseURL}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", stream, messages: [{ role: "user", content: "hi" }] }) });
    // fetch resolves when headers arrive: with the answer still pending, only the heartbeat sends them.
    const json = await chat(false);
    expect(json.status).toBe(200);
    answer({ text: "late" });
    const text = await json.text();
    expect(text).toMatch(/^ +\{/);
    expect(JSON.parse(text)).toMatchObject({ object: "chat.completion", choices: [{ message: { content: "late" } }] });

    const streamed = await chat(true);
    answer({ text: "late stream" });
    const events = await streamed.text();
    expect(events).toMatch(/^: waiting for the answer\n\n/);
    expect(events).toContain('"content":"late');
    expect(events.trimEnd().endsWith("data: [DONE]")).toBe(true);

    // After the heartbeat, a missing answer can only be reported in the body.
    const missing = await chat(false);
    answer(undefined);
    expect(JSON.parse(await missing.text())).toMatchObject({ error: { type: "script_exhausted", message: expect.stringMatching(/request 3 has no answer/) } });
    // And the real provider turns it into a failed call.
    const model = providerFor(server.baseURL)("loopback-model");
    const failed = generateText({ model, prompt: "x", maxRetries: 0 });
    while (server.requestCount < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    answer(undefined);
    await expect(failed).rejects.toThrow();
  });
});
