// @little-stack/testing from an installed copy: the scripted model and the loopback server drive
// real AI SDK calls (generateText, then createOpenAICompatible over HTTP on 127.0.0.1).
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createScriptedModel, startLoopbackOpenAIServer } from "@little-stack/testing";
import { generateText } from "ai";

const scripted = createScriptedModel({ script: [{ text: "scripted hello", usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 4, reasoningTokens: 0 } }] });
const first = await generateText({ model: scripted, prompt: "say hello" });

const server = await startLoopbackOpenAIServer({ script: [{ text: "loopback hello" }] });
let second;
try {
  const provider = createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "test", includeUsage: true });
  second = await generateText({ model: provider("any-model"), prompt: "say hello", maxRetries: 0 });
} finally {
  await server.close();
}
console.log(JSON.stringify({
  scriptedText: first.text,
  scriptedCalls: scripted.callCount,
  cachedInputTokens: first.totalUsage.inputTokenDetails.cacheReadTokens,
  loopbackText: second.text,
  loopbackRequests: server.requestCount,
  baseURL: server.baseURL,
}));
