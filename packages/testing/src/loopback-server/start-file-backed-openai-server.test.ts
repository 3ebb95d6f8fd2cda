import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileBackedAnswersOptionError, fileBackedAnswers } from "./file-backed-answers.js";
import { startFileBackedOpenAIServer, type FileBackedOpenAIServer } from "./start-file-backed-openai-server.js";

let dir: string;
let server: FileBackedOpenAIServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-backed-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function providerFor(baseURL: string, supportsStructuredOutputs = false) {
  return createOpenAICompatible({ name: "file-backed", baseURL, apiKey: "test-key", includeUsage: true, supportsStructuredOutputs });
}

/** Polls until the file exists (the server writes it when the request arrives) and returns its text. */
async function waitForFile(path: string): Promise<string> {
  for (;;) {
    try {
      return await readFile(path, "utf8");
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

async function waitForRemoval(path: string): Promise<void> {
  for (;;) {
    try {
      await readFile(path);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } catch {
      return;
    }
  }
}

const weather = tool({
  description: "Current temperature for a city.",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"], additionalProperties: false }),
  execute: async ({ city }) => ({ city, celsius: 3 }),
});

describe("startFileBackedOpenAIServer", () => {
  it("writes each request as JSON and Markdown and answers a real provider from the response files, tool calls included", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const answered = generateText({
      model: providerFor(server.baseURL)("eval-model"),
      system: "You are a weather assistant.",
      prompt: "Weather in Oslo?",
      tools: { weather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });

    const first = await waitForFile(join(dir, "0001.request.md"));
    expect(JSON.parse(await readFile(join(dir, "0001.request.json"), "utf8"))).toMatchObject({ model: "eval-model", messages: [{ role: "system" }, { role: "user" }] });
    expect(first).toContain("# Model request 0001");
    expect(first).toContain("## System\n\nYou are a weather assistant.");
    expect(first).toContain("### 1 · user\n\nWeather in Oslo?");
    expect(first).toContain("### `weather`\n\nCurrent temperature for a city.");
    expect(first).toContain('"description": "City name"');
    expect(first).toContain("write `0001.response.json`");
    await writeFile(join(dir, "0001.response.json"), JSON.stringify({ toolCalls: [{ toolName: "weather", args: { city: "Oslo" } }], usage: { inputTokens: 120, outputTokens: 15, cachedInputTokens: 64 } }));

    const second = await waitForFile(join(dir, "0002.request.md"));
    expect(second).toContain("Tool call `weather` (id `call_0_0`), arguments:");
    expect(second).toMatch(/### 3 · tool result for `call_0_0` \(weather\)\n\n```json\n\{\n {2}"city": "Oslo",\n {2}"celsius": 3\n\}/);
    // A malformed answer: an unknown key and a tool the request does not offer.
    await writeFile(join(dir, "0002.response.json"), JSON.stringify({ answer: "3 degrees", toolCalls: [{ toolName: "forecast", args: {} }] }));
    const problems = await waitForFile(join(dir, "0002.response-error.txt"));
    expect(problems).toContain('unknown key "answer"');
    expect(problems).toContain('toolCalls[0].toolName "forecast" is not a tool of this request (tools offered: weather)');
    expect(problems).toContain("Expected form:");
    await writeFile(join(dir, "0002.response.json"), JSON.stringify({ text: "It is 3 degrees in Oslo." }));

    const result = await answered;
    expect(result.text).toBe("It is 3 degrees in Oslo.");
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual({ city: "Oslo" });
    await waitForRemoval(join(dir, "0002.response-error.txt"));
    // Turn 1 reported its usage; turn 2 gave none and got the documented estimate (characters / 4).
    const body = JSON.parse(await readFile(join(dir, "0002.request.json"), "utf8")) as Record<string, unknown>;
    const estimatedInput = Math.ceil((JSON.stringify(body.messages).length + JSON.stringify(body.tools).length + JSON.stringify(null).length) / 4);
    expect(result.steps.map((step) => step.usage.inputTokens)).toEqual([120, estimatedInput]);
    expect(result.steps[1]?.usage.outputTokens).toBe(Math.ceil("It is 3 degrees in Oslo.".length / 4));
    expect(result.steps[0]?.usage.inputTokenDetails.cacheReadTokens).toBe(64);
    expect(server.requestCount).toBe(2);
  });

  it("shows a structured-output request's schema and refuses text that is not JSON", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const schema = jsonSchema<{ category: "billing" | "bug" }>({ type: "object", properties: { category: { type: "string", enum: ["billing", "bug"] } }, required: ["category"], additionalProperties: false });
    const answered = generateText({ model: providerFor(server.baseURL, true)("eval-model"), prompt: "Triage: I was charged twice.", output: Output.object({ schema }), maxRetries: 0 });
    const markdown = await waitForFile(join(dir, "0001.request.md"));
    expect(markdown).toContain("## Tools\n\nNone: answer with text.");
    expect(markdown).toMatch(/## Response format\n\nJSON matching this schema \(name `response`\)/);
    expect(markdown).toContain('"enum": [\n        "billing",\n        "bug"\n      ]');
    await writeFile(join(dir, "0001.response.json"), JSON.stringify({ text: "billing" }));
    expect(await waitForFile(join(dir, "0001.response-error.txt"))).toContain('"text" must be JSON');
    await writeFile(join(dir, "0001.response.json"), JSON.stringify({ text: JSON.stringify({ category: "billing" }) }));
    expect((await answered).output).toEqual({ category: "billing" });
  });

  it("still refuses a file that stays unparsable (a file that does not parse is judged on the second read that finds it unchanged)", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const answered = generateText({ model: providerFor(server.baseURL)("eval-model"), prompt: "Say hi.", maxRetries: 0 });
    await waitForFile(join(dir, "0001.request.md"));
    await writeFile(join(dir, "0001.response.json"), '{ "text": "hi');
    expect(await waitForFile(join(dir, "0001.response-error.txt"))).toContain("the file is not JSON");
    await writeFile(join(dir, "0001.response.json"), JSON.stringify({ text: "hi" }));
    expect((await answered).text).toBe("hi");
  });

  it("streams the answer (SSE) too", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const streamed = streamText({ model: providerFor(server.baseURL)("eval-model"), prompt: "Say hi.", maxRetries: 0 });
    await waitForFile(join(dir, "0001.request.md"));
    await writeFile(join(dir, "0001.response.json"), JSON.stringify({ text: "hi there" }));
    expect(await streamed.text).toBe("hi there");
    expect(server.requests[0]?.stream).toBe(true);
  });

  it("numbers a second server's requests after the files already in the folder", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const model = providerFor(server.baseURL)("eval-model");
    for (const prompt of ["one", "two"]) {
      const answered = generateText({ model, prompt, maxRetries: 0 });
      const number = prompt === "one" ? "0001" : "0002";
      await waitForFile(join(dir, `${number}.request.md`));
      await writeFile(join(dir, `${number}.response.json`), JSON.stringify({ text: prompt }));
      expect((await answered).text).toBe(prompt);
    }
    await server.close();
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const answered = generateText({ model: providerFor(server.baseURL)("eval-model"), prompt: "three", maxRetries: 0 });
    expect(await waitForFile(join(dir, "0003.request.md"))).toContain("three");
    await writeFile(join(dir, "0003.response.json"), JSON.stringify({ text: "three" }));
    expect((await answered).text).toBe("three");
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("answers with a provider error when no valid response arrives in timeoutMs, and when closed mid-wait", async () => {
    server = await startFileBackedOpenAIServer({ dir, pollMs: 10, timeoutMs: 60 });
    await expect(generateText({ model: providerFor(server.baseURL)("eval-model"), prompt: "anyone?", maxRetries: 0 })).rejects.toThrow(/no valid 0001\.response\.json in .* within 60 ms/);
    await server.close();

    server = await startFileBackedOpenAIServer({ dir, pollMs: 10 });
    const waiting = generateText({ model: providerFor(server.baseURL)("eval-model"), prompt: "still there?", maxRetries: 0 });
    await waitForFile(join(dir, "0002.request.md"));
    const closing = server.close();
    server = undefined;
    await expect(waiting).rejects.toThrow();
    await closing;
  });

  it("refuses options that cannot work", () => {
    expect(() => fileBackedAnswers({ dir, pollMs: 0 })).toThrow(FileBackedAnswersOptionError);
    expect(() => fileBackedAnswers({ dir, timeoutMs: -5 })).toThrow(/timeoutMs must be a positive integer/);
    expect(() => fileBackedAnswers({ dir: "" })).toThrow(/dir must be a directory path/);
  });
});
