import { createToolRegistry, defineWorkflow } from "@little-stack/workflow";
import { createScriptedModel } from "@little-stack/testing";
import { jsonSchema, tool } from "ai";

const documentSchema = { type: "object", required: ["documentId", "text"], properties: { documentId: { type: "string" }, text: { type: "string" } }, additionalProperties: false } as const;
const labelSchema = { type: "object", required: ["documentId", "label"], properties: { documentId: { type: "string" }, label: { type: "string", enum: ["invoice", "contract", "notes"] } }, additionalProperties: false } as const;

export type Document = { readonly documentId: string; readonly text: string };

/** The LWIR the scripted planner submits: one tool.call step per document. */
const classifyPlan = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "doc.classify", description: "Classify one document with the keyword classifier." },
  input: { schema: documentSchema },
  output: { schema: labelSchema },
  permissions: { models: [], tools: ["classifyDocument"] },
  steps: [
    {
      id: "classify",
      uses: "tool.call",
      needs: [],
      with: { tool: "classifyDocument", args: { documentId: "{{ input.documentId }}", text: "{{ input.text }}" } },
      output: { mode: "object", schema: labelSchema },
    },
  ],
};

export function sampleDocuments(count: number): Document[] {
  const kinds = ["Invoice #{n}: total due 120 EUR", "Contract {n}: the parties agree", "Meeting notes {n}: next steps"];
  return Array.from({ length: count }, (_, index) => ({ documentId: `doc-${String(index + 1).padStart(3, "0")}`, text: kinds[index % kinds.length]!.replace("{n}", String(index + 1)) }));
}

/**
 * The doc.classify workflow with a scripted planner (one submit_workflow turn: the planner is
 * called once per plan, never again on resume) and a keyword classifier tool that takes a little
 * time, so that sub-runs overlap.
 */
export function classifyWorkflow(options: { readonly onClassified?: (documentId: string) => void; readonly delayMs?: number } = {}) {
  const planner = createScriptedModel({ provider: "openai.chat", modelId: "gpt-5", script: [{ toolCalls: [{ toolName: "submit_workflow", args: { lwir: classifyPlan } }], usage: { inputTokens: 1200, outputTokens: 300 } }] });
  const tools = createToolRegistry({
    classifyDocument: tool({
      description: "Classify a document as invoice, contract or notes.",
      inputSchema: jsonSchema<Document>(documentSchema),
      execute: async ({ documentId, text }) => {
        await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 20));
        options.onClassified?.(documentId);
        const lower = text.toLowerCase();
        return { documentId, label: lower.includes("invoice") ? "invoice" : lower.includes("contract") ? "contract" : "notes" };
      },
    }),
  });
  const workflow = defineWorkflow({
    id: "doc.classify",
    description: "Classify one document as invoice, contract or notes.",
    input: documentSchema,
    output: labelSchema,
    tools: ["classifyDocument"],
    planner: { model: planner, system: "You design document classification workflows." },
  });
  return { planner, tools, workflow };
}
