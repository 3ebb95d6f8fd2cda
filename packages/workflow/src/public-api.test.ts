import { Output, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolRegistry, defineWorkflow, localWorld, model, runWorkflow, RunFailedError, skill, streamWorkflow } from "./index.js";

// Seed 000's example, as written, with scripted models in place of openai("gpt-5") / openai("gpt-4o-mini").
const CandidateReviewInput = z.object({ requirement: z.string(), resumeUrl: z.string() });
const CandidateReviewOutput = z.object({ verdict: z.enum(["hire", "no_hire"]), score: z.number() });

function scripted(provider: string, modelId: string, answer: () => Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>["content"]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: async () => ({
      content: answer(),
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 200, noCache: 200, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 40, text: 40, reasoning: 0 } },
      warnings: [],
    }),
  });
}

const plan = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "candidate.review" },
  input: { schema: z.toJSONSchema(CandidateReviewInput) },
  output: { schema: z.toJSONSchema(CandidateReviewOutput) },
  permissions: { models: ["gpt-4o-mini"], tools: ["parsePdf"] },
  steps: [
    { id: "parse", uses: "tool.call", needs: [], with: { tool: "parsePdf", args: { url: "{{ input.resumeUrl }}" } }, output: { mode: "object", schema: { type: "object", required: ["text"], properties: { text: { type: "string" } } } } },
    { id: "review", uses: "ai.generate", needs: ["parse"], with: { model: "gpt-4o-mini", prompt: "{{ input.requirement }}: {{ steps.parse.output.text }}" }, output: { mode: "object", schema: z.toJSONSchema(CandidateReviewOutput) } },
  ],
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("@little-stack/workflow public API (seed 000 example)", () => {
  it("runs candidate.review end to end from the front door", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lw-public-api-"));
    dirs.push(dataDir);
    const parsed: string[] = [];
    const tools = createToolRegistry({
      parsePdf: tool({
        description: "Parse a PDF file and return structured text.",
        inputSchema: z.object({ url: z.string() }),
        outputSchema: z.object({ text: z.string() }),
        execute: async ({ url }) => {
          parsed.push(url);
          return { text: "Ten years of TypeScript." };
        },
      }),
    });
    const gpt5 = scripted("openai.chat", "gpt-5", () => [{ type: "tool-call", toolCallId: "c1", toolName: "submit_workflow", input: JSON.stringify({ lwir: plan }) }]);
    const gpt4oMini = scripted("openai.chat", "gpt-4o-mini", () => [{ type: "text", text: JSON.stringify({ verdict: "hire", score: 9 }) }]);
    const workflow = defineWorkflow({
      id: "candidate.review",
      description: "Review candidates against a job requirement.",
      input: CandidateReviewInput,
      output: CandidateReviewOutput,
      models: [model(gpt4oMini)],
      tools: ["parsePdf"],
      planner: { model: gpt5, system: "You design candidate-review workflows." },
    });
    const world = localWorld({ dataDir, maxConcurrentSteps: 8 });
    try {
      const result = await runWorkflow(workflow, { requirement: "Senior engineer", resumeUrl: "https://example.test/cv.pdf" }, { world, tools, timeout: "30m" });
      // Typed output: verdict is "hire" | "no_hire", score a number.
      const verdict: "hire" | "no_hire" = result.output.verdict;
      expect(verdict).toBe("hire");
      expect(result.output.score).toBe(9);
      expect(result.status).toBe("completed");
      expect(parsed).toEqual(["https://example.test/cv.pdf"]);
      expect(gpt5.doGenerateCalls).toHaveLength(1);
      expect(gpt4oMini.doGenerateCalls).toHaveLength(1);
      expect(result.usage.costUsd).not.toBeNull();
      expect(typeof skill).toBe("function");
    } finally {
      await world.close();
    }
  });

  it("takes the AI SDK's Output.object as the output, planned and run like a Zod schema, typed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lw-public-api-"));
    dirs.push(dataDir);
    const planner = scripted("openai.chat", "gpt-5", () => [{ type: "tool-call", toolCallId: "c1", toolName: "submit_workflow", input: JSON.stringify({ lwir: { ...plan, permissions: { models: ["gpt-4o-mini"], tools: [] }, steps: [plan.steps[1]!].map((step) => ({ ...step, needs: [], with: { model: "gpt-4o-mini", prompt: "{{ input.requirement }}" } })) } }) }]);
    const worker = scripted("openai.chat", "gpt-4o-mini", () => [{ type: "text", text: JSON.stringify({ verdict: "no_hire", score: 3 }) }]);
    // Right after defineWorkflow the Output's schema is still resolving: runWorkflow waits for it.
    const workflow = defineWorkflow({ id: "candidate.review", input: CandidateReviewInput, output: Output.object({ schema: CandidateReviewOutput }), models: [model(worker)], planner: { model: planner } });
    const world = localWorld({ dataDir });
    try {
      const run = streamWorkflow(workflow, { requirement: "Senior engineer", resumeUrl: "https://example.test/cv.pdf" }, { world });
      const types: string[] = [];
      for await (const event of run.events) if (!event.ephemeral) types.push(event.type);
      const result = await run.result;
      const verdict: "hire" | "no_hire" = result.output.verdict;
      expect(verdict).toBe("no_hire");
      expect(result.output.score).toBe(3);
      expect(types.at(-1)).toBe("RunCompleted");
      // The planner saw the Output's schema as the required run output.
      expect(JSON.stringify(planner.doGenerateCalls[0]!.prompt)).toContain("no_hire");
    } finally {
      await world.close();
    }
  });

  it("a bad input surfaces as RunFailedError with input_schema_error, catchable from the front door", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lw-public-api-"));
    dirs.push(dataDir);
    const planner = scripted("openai.chat", "gpt-5", () => []);
    const workflow = defineWorkflow({ id: "candidate.review", input: CandidateReviewInput, output: CandidateReviewOutput, planner: { model: planner } });
    const world = localWorld({ dataDir });
    try {
      const error = await runWorkflow(workflow, { requirement: 3 } as never, { world }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RunFailedError);
      expect((error as RunFailedError).causeCode).toBe("input_schema_error");
      expect(planner.doGenerateCalls).toHaveLength(0);
    } finally {
      await world.close();
    }
  });
});
