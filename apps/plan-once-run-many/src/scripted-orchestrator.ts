import { MockLanguageModelV3 } from "ai/test";
import type { Document } from "./classify-workflow.js";

type Prompt = Parameters<MockLanguageModelV3["doGenerate"]>[0]["prompt"];
type ToolResult = { readonly toolName: string; readonly value: unknown };

function toolResults(prompt: Prompt): ToolResult[] {
  const results: ToolResult[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type: string; value?: unknown };
      results.push({ toolName: part.toolName, value: output.value });
    }
  }
  return results;
}

/**
 * A scripted orchestrator: plan doc.classify once on the first document, run every document in
 * one turn (the harness runs those calls concurrently, at most maxConcurrentSubRuns at a time),
 * then answer with a tally. It answers from the tool results in its prompt, so a resumed session
 * (recorded turns replayed from the log) continues exactly where it stopped.
 */
export function scriptedOrchestrator(documents: readonly Document[]): MockLanguageModelV3 {
  const answer = (text: string | undefined, calls: { toolName: string; args: unknown }[]) => ({
    content: [
      ...(text === undefined ? [] : [{ type: "text" as const, text }]),
      ...calls.map((call, index) => ({ type: "tool-call" as const, toolCallId: `call_${index}`, toolName: call.toolName, input: JSON.stringify(call.args) })),
    ],
    finishReason: { unified: calls.length > 0 ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
    usage: { inputTokens: { total: 800, noCache: 800, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 60 * Math.max(1, calls.length), text: 60 * Math.max(1, calls.length), reasoning: 0 } },
    warnings: [],
  });
  return new MockLanguageModelV3({
    provider: "openai.chat",
    modelId: "gpt-5",
    doGenerate: async ({ prompt }) => {
      const results = toolResults(prompt);
      const plan = results.find((result) => result.toolName === "plan_workflow")?.value as { workflowVersionId: string } | undefined;
      if (plan === undefined) return answer("Planning doc.classify once.", [{ toolName: "plan_workflow", args: { workflowId: "doc.classify", input: documents[0] } }]);
      const runs = results.filter((result) => result.toolName === "run_workflow").map((result) => result.value as { status: string; outputSummary: string });
      if (runs.length === 0) return answer(undefined, documents.map((document) => ({ toolName: "run_workflow", args: { workflowVersionId: plan.workflowVersionId, input: document } })));
      const tally: Record<string, number> = {};
      for (const run of runs) {
        const label = run.status === "completed" ? (JSON.parse(run.outputSummary) as { label: string }).label : "failed";
        tally[label] = (tally[label] ?? 0) + 1;
      }
      return answer(JSON.stringify({ classified: runs.length, tally }), []);
    },
  });
}
