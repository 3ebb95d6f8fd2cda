import { defineWorkflow } from "@little-stack/authoring";
import { createToolRegistry } from "@little-stack/harness";
import { jsonSchema, tool } from "ai";
import { createFakeModel, createFakePlanner, toolResults, type FakeModel } from "./fake-model.js";

export const documentInputSchema = { type: "object", required: ["documentId", "text"], properties: { documentId: { type: "string" }, text: { type: "string" } }, additionalProperties: false } as const;
export const labelOutputSchema = { type: "object", required: ["documentId", "label"], properties: { documentId: { type: "string" }, label: { type: "string" } }, additionalProperties: false } as const;

/** The LWIR a planner designs for doc.classify: one tool.call step. */
export function classifyPlan(): Record<string, unknown> {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "doc.classify" },
    input: { schema: documentInputSchema },
    output: { schema: labelOutputSchema },
    permissions: { models: [], tools: ["classify"] },
    steps: [{ id: "classify", uses: "tool.call", needs: [], with: { tool: "classify", args: { documentId: "{{ input.documentId }}", text: "{{ input.text }}" } }, output: { mode: "object", schema: labelOutputSchema } }],
  };
}

export function documents(count: number): { documentId: string; text: string }[] {
  return Array.from({ length: count }, (_, index) => ({ documentId: `doc-${String(index + 1).padStart(3, "0")}`, text: index % 3 === 0 ? "invoice total due" : "meeting notes" }));
}

export type ClassifyHooks = {
  /** Called when a classification starts; its promise gates the answer (barriers, delays). */
  readonly onStart?: (documentId: string) => Promise<void> | void;
  readonly onDone?: (documentId: string) => void;
};

export function classifySetup(options: { readonly planner?: FakeModel; readonly hooks?: ClassifyHooks; readonly description?: string } = {}) {
  const planner = options.planner ?? createFakePlanner(() => classifyPlan());
  const tools = createToolRegistry({
    classify: tool({
      description: "Classify one document.",
      inputSchema: jsonSchema<{ documentId: string; text: string }>({ type: "object", required: ["documentId", "text"], properties: { documentId: { type: "string" }, text: { type: "string" } } }),
      execute: async ({ documentId, text }) => {
        await options.hooks?.onStart?.(documentId);
        options.hooks?.onDone?.(documentId);
        return { documentId, label: text.includes("invoice") ? "invoice" : "notes" };
      },
    }),
  });
  const workflow = defineWorkflow({
    id: "doc.classify",
    description: options.description ?? "Classify a document as invoice or notes.",
    input: documentInputSchema,
    output: labelOutputSchema,
    tools: ["classify"],
    planner: { model: planner, system: "You design document classification workflows." },
  });
  return { planner, tools, workflow };
}

/**
 * An orchestrator model that plans doc.classify once on the first document, then runs every
 * document in one turn, then answers with the count. It decides from the tool results in its
 * prompt, so a resumed session in a new process answers the same way.
 */
export function createFanOutOrchestrator(items: readonly { documentId: string; text: string }[], options: { readonly planTwice?: boolean } = {}): FakeModel {
  return createFakeModel({
    provider: "openai.chat",
    modelId: "gpt-5",
    respond: (prompt) => {
      const results = toolResults(prompt);
      const plans = results.filter((result) => result.toolName === "plan_workflow");
      const runs = results.filter((result) => result.toolName === "run_workflow");
      if (plans.length === 0 || (options.planTwice === true && plans.length === 1)) {
        return { toolCalls: [{ toolName: "plan_workflow", args: { workflowId: "doc.classify", input: items[0] } }] };
      }
      if (runs.length === 0) {
        const plan = outputValue(plans[0]!.output) as { workflowVersionId: string };
        return { toolCalls: items.map((item) => ({ toolName: "run_workflow", args: { workflowVersionId: plan.workflowVersionId, input: item } })) };
      }
      const completed = runs.filter((run) => (outputValue(run.output) as { status?: string }).status === "completed").length;
      return { text: `Classified ${completed} of ${items.length} documents.` };
    },
  });
}

/** The value of a V3 tool-result output part ({ type: "json", value } or { type: "text", value }). */
export function outputValue(output: unknown): unknown {
  const part = output as { type?: string; value?: unknown };
  if (part?.type === "json") return part.value;
  if (part?.type === "text" && typeof part.value === "string") {
    try {
      return JSON.parse(part.value);
    } catch {
      return part.value;
    }
  }
  return output;
}
