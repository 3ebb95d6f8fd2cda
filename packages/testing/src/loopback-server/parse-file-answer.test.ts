import { describe, expect, it } from "vitest";
import { parseFileAnswer } from "./parse-file-answer.js";

const rules = { toolNames: ["submit_workflow", "bash"], jsonText: false };

describe("parseFileAnswer", () => {
  it("reads text, tool calls, reasoning and usage into a turn", () => {
    const text = JSON.stringify({ text: "checking", reasoning: "plan first", toolCalls: [{ toolName: "bash", args: { cmd: "ls" } }], usage: { inputTokens: 10, outputTokens: 4, cachedInputTokens: 2, reasoningTokens: 1 } });
    expect(parseFileAnswer(text, rules)).toEqual({
      turn: { text: "checking", reasoning: "plan first", toolCalls: [{ toolName: "bash", args: { cmd: "ls" } }], usage: { inputTokens: 10, outputTokens: 4, cachedInputTokens: 2, reasoningTokens: 1 } },
    });
  });

  it("lists every problem of a malformed answer, each naming the field", () => {
    expect(parseFileAnswer("{ text: 1 }", rules).problems?.[0]).toMatch(/^the file is not JSON/);
    expect(parseFileAnswer("{ text: 1 }", rules).unparsable).toBe(true);
    expect(parseFileAnswer("[]", rules).problems).toEqual(["the file must hold one JSON object"]);
    expect(parseFileAnswer("[]", rules).unparsable).toBeUndefined();
    expect(parseFileAnswer("{}", rules).problems).toEqual(['give a non-empty "text" or at least one entry in "toolCalls"']);
    const problems = parseFileAnswer(
      JSON.stringify({ tool_calls: [], toolCalls: [{ toolName: "bash", args: "ls", id: "x" }, "submit"], usage: { inputTokens: 3, outputTokens: -1, cachedInputTokens: 5, cost: 1 } }),
      rules,
    ).problems;
    expect(problems).toEqual([
      'unknown key "tool_calls" (allowed: text, toolCalls, reasoning, usage)',
      'toolCalls[0] has unknown key "id" (allowed: toolName, args)',
      'toolCalls[0].args must be a JSON object (the tool\'s arguments), got "ls"',
      'toolCalls[1] must be an object { "toolName", "args" }',
      'usage has unknown key "cost" (allowed: inputTokens, outputTokens, cachedInputTokens, reasoningTokens)',
      "usage.outputTokens must be a non-negative integer",
      "usage.cachedInputTokens cannot exceed usage.inputTokens (cached tokens are a subset)",
    ]);
    expect(parseFileAnswer(JSON.stringify({ toolCalls: [{ toolName: "bash", args: {} }] }), { toolNames: [], jsonText: false }).problems).toEqual([
      'toolCalls[0].toolName "bash" is not a tool of this request (this request offers no tools: answer with text)',
    ]);
  });

  it("requires JSON text when the request has a JSON response format", () => {
    expect(parseFileAnswer(JSON.stringify({ text: "billing" }), { toolNames: [], jsonText: true }).problems?.[0]).toMatch(/"text" must be JSON/);
    expect(parseFileAnswer(JSON.stringify({ text: '"billing"' }), { toolNames: [], jsonText: true }).turn).toEqual({ text: '"billing"' });
  });
});
