import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "./create-scripted-model.js";
import { ScriptExhaustedError } from "./script-exhausted-error.js";

describe("createScriptedModel", () => {
  it("answers with the script's text, tool calls and usage (cached and reasoning tokens) and counts calls", async () => {
    const model = createScriptedModel({
      script: [
        { toolCalls: [{ toolName: "square", args: { n: 3 } }], usage: { inputTokens: 50, outputTokens: 10, cachedInputTokens: 20, reasoningTokens: 4 } },
        { text: "nine", usage: { inputTokens: 70, outputTokens: 2 } },
      ],
    });
    const square = tool({ description: "n²", inputSchema: jsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }), execute: async ({ n }) => n * n });
    const result = await generateText({ model, tools: { square }, prompt: "3²?", stopWhen: stepCountIs(3) });
    expect(result.text).toBe("nine");
    expect(result.steps[0]?.toolResults[0]?.output).toBe(9);
    expect(result.totalUsage.inputTokens).toBe(120);
    expect(result.totalUsage.inputTokenDetails.cacheReadTokens).toBe(20);
    expect(result.totalUsage.outputTokenDetails.reasoningTokens).toBe(4);
    expect(model.callCount).toBe(2);
    expect(model.remainingTurns).toBe(0);
  });

  it("streams the same script", async () => {
    const model = createScriptedModel({ script: [{ reasoning: "think", text: "streamed answer" }] });
    const result = streamText({ model, prompt: "go" });
    expect(await result.text).toBe("streamed answer");
    expect(await result.reasoningText).toBe("think");
  });

  it("fails loudly once the script is exhausted", async () => {
    const model = createScriptedModel({ script: [{ text: "only one" }] });
    await generateText({ model, prompt: "1" });
    const error = await generateText({ model, prompt: "2", maxRetries: 0 }).catch((caught: unknown) => caught);
    expect(ScriptExhaustedError.is(error, "testing.script_exhausted") || ScriptExhaustedError.is((error as Error).cause)).toBe(true);
    expect(String((error as Error).message)).toMatch(/called 2 times but its script has 1 turns/);
    expect(model.callCount).toBe(2);
  });
});
