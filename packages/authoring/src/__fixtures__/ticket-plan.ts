import type { LwirDocument } from "@little-stack/lwir";

export const ticketInputSchema = {
  type: "object",
  required: ["ticketId", "transcript"],
  properties: { ticketId: { type: "string" }, transcript: { type: "string" } },
} as const;

export const ticketOutputSchema = {
  type: "object",
  required: ["summary", "severity"],
  properties: { summary: { type: "string" }, severity: { type: "string", enum: ["low", "medium", "high"] } },
} as const;

/** A valid LWIR for the `support.summarize-ticket` workflow with one model slot `gpt-4o-mini`. */
export function ticketPlan(overrides: { readonly name?: string; readonly model?: string; readonly tools?: readonly string[] } = {}): LwirDocument {
  const model = overrides.model ?? "gpt-4o-mini";
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: overrides.name ?? "support.summarize-ticket" },
    input: { schema: ticketInputSchema },
    output: { schema: ticketOutputSchema },
    permissions: { models: [model], tools: [...(overrides.tools ?? [])] },
    steps: [
      {
        id: "summarize",
        uses: "ai.generate",
        needs: [],
        with: { model, prompt: "Summarize ticket {{ input.ticketId }}: {{ input.transcript }}" },
        output: { mode: "object", schema: ticketOutputSchema },
      },
    ],
  } as unknown as LwirDocument;
}
