import type { LanguageModelV3 } from "@ai-sdk/provider";
import { defineWorkflow, model, type SuperviseDecision, type SuperviseRequest } from "@little-stack/authoring";
import { createToolRegistry } from "@little-stack/harness";
import { tool } from "ai";
import { z } from "zod";
import { createFakeModel, promptText } from "./fake-model.js";

export const CandidateReviewInput = z.object({ requirement: z.string(), resumeUrl: z.string() });
export const CandidateReviewOutput = z.object({ verdict: z.enum(["hire", "no_hire"]), score: z.number() });

const inputSchema = z.toJSONSchema(CandidateReviewInput);
const outputSchema = z.toJSONSchema(CandidateReviewOutput);

/** The LWIR a planner designs for candidate.review: parse the résumé, then one model review. */
export function candidateReviewPlan(options: { readonly note?: string } = {}): Record<string, unknown> {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "candidate.review", ...(options.note === undefined ? {} : { description: options.note }) },
    input: { schema: inputSchema },
    output: { schema: outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: ["parsePdf"] },
    steps: [
      { id: "parse", uses: "tool.call", needs: [], with: { tool: "parsePdf", args: { url: "{{ input.resumeUrl }}" } }, output: { mode: "object", schema: { type: "object", required: ["text"], properties: { text: { type: "string" } } } } },
      {
        id: "review",
        uses: "ai.generate",
        needs: ["parse"],
        with: { model: "gpt-4o-mini", prompt: "Requirement: {{ input.requirement }}\nRésumé: {{ steps.parse.output.text }}\nVerdict and score 0-10." },
        output: { mode: "object", schema: outputSchema },
      },
    ],
  };
}

/** A worker model that reviews: "hire" with 8 when the résumé mentions TypeScript. */
export function createReviewerModel(): ReturnType<typeof createFakeModel> {
  return createFakeModel({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    respond: (prompt) => {
      const text = promptText(prompt);
      const hire = text.includes("TypeScript");
      return { text: JSON.stringify({ verdict: hire ? "hire" : "no_hire", score: hire ? 8 : 3 }), usage: { inputTokens: 1000, outputTokens: 50 } };
    },
  });
}

export function createParsePdfTool(calls: string[] = []) {
  return tool({
    description: "Parse a PDF file and return structured text.",
    inputSchema: z.object({ url: z.string() }),
    outputSchema: z.object({ text: z.string() }),
    execute: async ({ url }) => {
      calls.push(url);
      return { text: `Résumé at ${url}: 6 years of TypeScript.` };
    },
  });
}

export function candidateReviewSetup(options: {
  readonly planner: LanguageModelV3;
  readonly reviewer?: LanguageModelV3;
  readonly parseCalls?: string[];
  readonly maxOuterCycles?: number;
  readonly supervise?: (request: SuperviseRequest) => SuperviseDecision | Promise<SuperviseDecision>;
}) {
  const tools = createToolRegistry({ parsePdf: createParsePdfTool(options.parseCalls) });
  const workflow = defineWorkflow({
    id: "candidate.review",
    description: "Review candidates against a job requirement.",
    input: CandidateReviewInput,
    output: CandidateReviewOutput,
    models: [model(options.reviewer ?? createReviewerModel())],
    tools: ["parsePdf"],
    planner: {
      model: options.planner,
      system: "You design candidate-review workflows.",
      ...(options.maxOuterCycles === undefined ? {} : { maxOuterCycles: options.maxOuterCycles }),
      ...(options.supervise === undefined ? {} : { supervise: options.supervise }),
    },
  });
  return { tools, workflow };
}
