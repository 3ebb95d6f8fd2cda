import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { defineWorkflow, model, type DefineWorkflowOptions } from "@little-stack/authoring";
import type { Harness } from "@little-stack/harness";
import { localWorld, type LocalWorld } from "@little-stack/local-world";
import type { LwirDocument } from "@little-stack/lwir";
import { createScriptedModel, type ScriptedTurn } from "@little-stack/testing";
import { tool } from "ai";
import { z } from "zod";

export const ticketInput = { ticketId: "T-1", transcript: "The app crashes on login." };

export const inputSchema = {
  type: "object",
  required: ["ticketId", "transcript"],
  properties: { ticketId: { type: "string" }, transcript: { type: "string" } },
} as const;

export const outputSchema = {
  type: "object",
  required: ["summary", "severity"],
  properties: { summary: { type: "string" }, severity: { type: "string", enum: ["low", "medium", "high"] } },
} as const;

/** An execution model that must never be called during a compile. */
export const executionModel = createScriptedModel({ script: [], modelId: "gpt-4o-mini", provider: "openai.chat" });

export function lookupTool(description = "Look up a customer by ticket id.") {
  return tool({ description, inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ customer: `c-${ticketId}` }) });
}

/** The valid LWIR of the ticket workflow (slot `gpt-4o-mini`, tool `lookupCustomer`). */
export function validTicketLwir(): LwirDocument {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "support.summarize-ticket" },
    input: { schema: inputSchema },
    output: { schema: outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: ["lookupCustomer"] },
    steps: [
      { id: "lookup", uses: "tool.call", needs: [], with: { tool: "lookupCustomer", args: { ticketId: "{{ input.ticketId }}" } }, output: { mode: "json" } },
      {
        id: "summarize",
        uses: "ai.generate",
        needs: ["lookup"],
        with: { model: "gpt-4o-mini", prompt: "Summarize ticket {{ input.ticketId }}: {{ input.transcript }}" },
        output: { mode: "object", schema: outputSchema },
      },
    ],
  } as unknown as LwirDocument;
}

/** The same LWIR with three distinct binding mistakes: wrong name, unknown model slot, unknown tool. */
export function lwirWithThreeMistakes(): LwirDocument {
  const lwir = structuredClone(validTicketLwir()) as unknown as {
    metadata: { name: string };
    permissions: { models: string[]; tools: string[] };
    steps: { with: Record<string, unknown> }[];
  };
  lwir.metadata.name = "support.ticket";
  lwir.permissions.models = ["gpt-9"];
  lwir.steps[1]!.with.model = "gpt-9";
  lwir.permissions.tools = ["lookupCustomer", "deleteCustomer"];
  return lwir as unknown as LwirDocument;
}

export function submit(lwir: unknown): ScriptedTurn {
  return { toolCalls: [{ toolName: "submit_workflow", args: { lwir } }] };
}

export function ticketWorkflow(options: {
  readonly plannerModel?: LanguageModelV3;
  readonly plan?: LwirDocument;
  readonly harness?: Harness;
  readonly overrides?: Partial<DefineWorkflowOptions>;
  readonly toolDescription?: string;
}) {
  return defineWorkflow({
    id: "support.summarize-ticket",
    description: "Summarize a support ticket and classify its severity.",
    input: inputSchema,
    output: outputSchema,
    models: [model(executionModel, { description: "Fast model for short structured outputs." })],
    tools: { lookupCustomer: lookupTool(options.toolDescription) },
    ...(options.plan === undefined
      ? { planner: { model: options.plannerModel ?? createScriptedModel({ script: [] }), system: "You design support-ticket workflows.", ...(options.harness === undefined ? {} : { harness: options.harness }), maxWorkflowRevisions: 3 } }
      : { plan: options.plan }),
    ...options.overrides,
  } as DefineWorkflowOptions);
}

export type TempWorld = { readonly world: LocalWorld; readonly dataDir: string; close(): Promise<void> };

/** A real local world (SQLite, files) in a fresh temp directory. */
export async function tempWorld(): Promise<TempWorld> {
  const dataDir = await mkdtemp(join(tmpdir(), "compiler-test-"));
  const world = localWorld({ dataDir });
  return {
    world,
    dataDir,
    async close() {
      await world.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
